import BazaarAPI

/// The account settings page, and the page after a deletion.
enum SettingsTemplates {
    /// `account`: sessions, password, blocked people, export, deletion.
    static let account = """
        {{< layout}}{{$content}}
        <h1>Your account</h1>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <section class="card" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        <ul class="sessions">
        {{#sessions}}
        <li><strong>{{label}}</strong> <span>signed in {{signedIn}}, last used <time datetime="{{isoLastUsed}}">{{lastUsed}}</time></span>
        {{^current}}<form class="inline" method="post" action="/account/sessions/{{id}}/end"><input type="hidden" name="csrf" value="{{nav.csrf}}"><button type="submit" class="small">Sign out</button></form>{{/current}}</li>
        {{/sessions}}
        </ul>
        {{#hasOthers}}<form method="post" action="/account/sessions/end-others"><input type="hidden" name="csrf" value="{{nav.csrf}}"><button type="submit">Sign out everywhere else</button></form>{{/hasOthers}}
        </section>
        <form method="post" action="/account/password" class="card" novalidate>
        <h2>Change your password</h2>
        <p>Every other session is signed out.</p>
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <label for="current-password">Current password</label>
        <input id="current-password" name="currentPassword" type="password" autocomplete="current-password" required {{#currentPasswordError}}aria-invalid="true" aria-describedby="current-password-error"{{/currentPasswordError}}>
        {{#currentPasswordError}}<p id="current-password-error" class="field-error">{{currentPasswordError}}</p>{{/currentPasswordError}}
        <label for="new-password">New password (8 to \(InputRules.password.upperBound) characters)</label>
        <input id="new-password" name="newPassword" type="password" autocomplete="new-password" required minlength="\(InputRules.password.lowerBound)" {{#newPasswordError}}aria-invalid="true" aria-describedby="new-password-error"{{/newPasswordError}}>
        {{#newPasswordError}}<p id="new-password-error" class="field-error">{{newPasswordError}}</p>{{/newPasswordError}}
        <button type="submit">Change password</button>
        </form>
        <section class="card" aria-labelledby="blocked-heading">
        <h2 id="blocked-heading">People you blocked</h2>
        <ul class="blocked">
        {{#blocked}}
        <li>{{name}} <form class="inline" method="post" action="/account/blocks/{{id}}/unblock"><input type="hidden" name="csrf" value="{{nav.csrf}}"><button type="submit" class="small">Unblock</button></form></li>
        {{/blocked}}
        {{^blocked}}<li>Nobody.</li>{{/blocked}}
        </ul>
        </section>
        <section class="card" aria-labelledby="export-heading">
        <h2 id="export-heading">Your data</h2>
        <p><a href="/account/export" download>Download everything of yours (a ZIP archive)</a></p>
        </section>
        <form method="post" action="/account/delete" class="card danger" novalidate>
        <h2>Delete your account</h2>
        <p>Your listings, photos, saves and blocks are deleted. Others keep their conversations with you, where you appear as “Deleted user”. This cannot be undone.</p>
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <label for="delete-password">Your password</label>
        <input id="delete-password" name="password" type="password" autocomplete="current-password" required {{#deletePasswordError}}aria-invalid="true" aria-describedby="delete-password-error"{{/deletePasswordError}}>
        {{#deletePasswordError}}<p id="delete-password-error" class="field-error">{{deletePasswordError}}</p>{{/deletePasswordError}}
        <button type="submit" class="danger">Delete my account</button>
        </form>
        {{/content}}{{/layout}}
        """

    /// `accountDeleted`: goodbye.
    static let accountDeleted = """
        {{< layout}}{{$content}}
        <h1>Your account is deleted</h1>
        <p role="status">Everything of yours is gone from Bazaar. Thank you for having been here.</p>
        <p><a href="/products">Browse the products</a></p>
        {{/content}}{{/layout}}
        """
}
