/// The page frame every screen sits in, and the navigation.
enum LayoutTemplates {
    /// `layout`: the document, the navigation and a `content` block each page fills.
    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · Bazaar</title>
        <link rel="stylesheet" href="/static/app.css">
        <script src="/static/app.js" defer></script>
        </head>
        <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="bar">
        <nav aria-label="Main">
        <a class="brand" href="/products">Bazaar</a>
        <a href="/products">Browse</a>
        {{#nav.user}}
        <a href="/sell">Sell something</a>
        <a href="/conversations">Messages</a>
        <a href="/notifications">Notifications {{> unreadBadge}}</a>
        <a href="/saved">Saved</a>
        <a href="/profile">Profile ({{displayName}})</a>
        <a href="/account">Account</a>
        {{#isModerator}}<a href="/moderation">Moderation</a>{{/isModerator}}
        <form class="inline" method="post" action="/signout">
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <button type="submit">Sign out</button>
        </form>
        {{/nav.user}}
        {{^nav.user}}
        <a href="/signin">Sign in or register</a>
        {{/nav.user}}
        </nav>
        </header>
        <main id="main" data-live="{{nav.live}}">
        {{#nav.notice}}<p class="notice" role="status">{{nav.notice}}</p>{{/nav.notice}}
        {{$content}}{{/content}}
        </main>
        </body>
        </html>
        """

    /// `unreadBadge`: the unread notification count, swapped live.
    static let unreadBadge = """
        <span id="unread-badge" class="badge">{{#nav.unread}}{{nav.unread}} unread{{/nav.unread}}</span>
        """

    /// `error`: a failed screen, with what to do next.
    static let error = """
        {{< layout}}{{$content}}
        <h1>{{heading}}</h1>
        <p role="alert">{{message}}</p>
        <p>{{suggestion}}</p>
        <p><a href="/products">Back to the products</a></p>
        {{/content}}{{/layout}}
        """
}
