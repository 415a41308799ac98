/// Signing in and registering.
enum AccountTemplates {
    /// `signin`: both forms side by side.
    static let signin = """
        {{< layout}}{{$content}}
        <h1>Sign in</h1>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/signin" class="card">
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <label for="signin-username">Username</label>
        <input id="signin-username" name="username" autocomplete="username" required value="{{username}}">
        <label for="signin-password">Password</label>
        <input id="signin-password" name="password" type="password" autocomplete="current-password" required>
        <button type="submit">Sign in</button>
        </form>
        <h2>New here? Register</h2>
        <form method="post" action="/register" class="card">
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <label for="register-username">Username (3 to 32 of a-z, 0-9, _ and .)</label>
        <input id="register-username" name="username" autocomplete="username" required>
        <label for="register-name">Your name, as others see it</label>
        <input id="register-name" name="displayName" autocomplete="name" required>
        <label for="register-password">Password (at least 8 characters)</label>
        <input id="register-password" name="password" type="password" autocomplete="new-password" required>
        <button type="submit">Register</button>
        </form>
        {{/content}}{{/layout}}
        """
}
