/// Notifications and the profile.
enum AccountPagesTemplates {
    /// `notifications`: each in words, unread ones marked, with mark-read forms.
    static let notifications = """
        {{< layout}}{{$content}}
        <h1>Notifications</h1>
        {{> notificationList}}
        {{/content}}{{/layout}}
        """

    /// `notificationList`: swapped live when a notification arrives.
    static let notificationList = """
        <section id="notification-list">
        {{#hasUnread}}
        <form method="post" action="/notifications/read-all">
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <button type="submit">Mark all as read</button>
        </form>
        {{/hasUnread}}
        <ul class="notifications">
        {{#items}}
        <li class="{{^read}}unread{{/read}}">{{^read}}<strong>New:</strong> {{/read}}{{#link}}<a href="{{link}}">{{headline}}</a>{{/link}}{{^link}}{{headline}}{{/link}} <time datetime="{{isoTime}}">{{time}}</time>
        {{^read}}<form class="inline" method="post" action="/notifications/{{id}}/read"><input type="hidden" name="csrf" value="{{nav.csrf}}"><button type="submit">Mark as read</button></form>{{/read}}
        </li>
        {{/items}}
        {{^items}}<li>No notifications.</li>{{/items}}
        </ul>
        </section>
        """

    /// `profile`: the user, renaming, and a photo upload.
    static let profile = """
        {{< layout}}{{$content}}
        <h1>Your profile</h1>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <section class="card">
        {{#photoURL}}<img src="{{photoURL}}" alt="Your profile photo" width="96" height="96">{{/photoURL}}
        <p>{{displayName}} (@{{username}})</p>
        <p class="rating">{{#stars}}<span class="stars" role="img" aria-label="Rated {{ratingSummary}}">{{stars}}</span> {{/stars}}{{ratingSummary}}</p>
        <p><a href="/users/{{id}}">Your page, as others see it</a></p>
        </section>
        <form method="post" action="/profile/name" class="card">
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <label for="display-name">Display name</label>
        <input id="display-name" name="displayName" value="{{displayName}}" required>
        <button type="submit">Rename</button>
        </form>
        <form method="post" action="/profile/photo?csrf={{nav.csrf}}" enctype="multipart/form-data" class="card" data-upload>
        <label for="photo">New photo (JPEG, PNG or WebP, at most 5 MiB)</label>
        <input id="photo" name="photo" type="file" accept="image/jpeg,image/png,image/webp" required>
        <progress id="upload-progress" max="100" value="0" hidden aria-label="Upload progress"></progress>
        <button type="submit">Upload photo</button>
        </form>
        {{/content}}{{/layout}}
        """
}
