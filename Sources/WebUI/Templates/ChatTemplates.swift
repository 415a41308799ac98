import BazaarAPI

/// Conversations and one conversation.
enum ChatTemplates {
    /// `conversations`: who, about what, the last message, unread counts.
    static let conversations = """
        {{< layout}}{{$content}}
        <h1>Messages</h1>
        {{> conversationList}}
        {{/content}}{{/layout}}
        """

    /// `conversationList`: the list itself, swapped live.
    static let conversationList = """
        <ul id="conversation-list" class="conversations">
        {{#conversations}}
        <li><a href="/conversations/{{id}}">{{with}}{{#about}} about {{about}}{{/about}}</a>
        {{#lastMessage}}<span class="excerpt">{{lastMessage}}</span>{{/lastMessage}}
        {{#unread}}<span class="badge">{{unread}} unread</span>{{/unread}}</li>
        {{/conversations}}
        {{^conversations}}<li>No conversations yet. Find something you like and message the seller.</li>{{/conversations}}
        </ul>
        """

    /// `conversation`: the history, what is on its way, and the form to write.
    static let conversation = """
        {{< layout}}{{$content}}
        <h1>{{heading}}</h1>
        {{#olderURL}}<p><a href="{{olderURL}}">Show earlier messages</a></p>{{/olderURL}}
        {{> messageList}}
        {{> offerForm}}
        {{#reviewed}}<p class="card" id="review">{{reviewed}}</p>{{/reviewed}}
        {{#review}}<section id="review"><h2>Review this sale</h2>{{> reviewForm}}</section>{{/review}}
        {{#blocked}}<p class="notice" role="status">You cannot write here: one of you blocked the other. What was said stays here to read. <a href="/account">People you blocked</a></p>{{/blocked}}
        {{#otherDeleted}}<p class="notice" role="status">This person deleted their account: nothing more can be sent here. What was said stays here to read.</p>{{/otherDeleted}}
        {{^closed}}
        <form method="post" action="/conversations/{{id}}/messages" class="card compose" enctype="multipart/form-data" data-compose>
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <label for="compose">Your message</label>
        <textarea id="compose" name="body" maxlength="\(InputRules.messageBody.upperBound)"></textarea>
        <label for="compose-photos">Photos (up to \(Message.attachmentLimit), optional)</label>
        <input id="compose-photos" name="photos" type="file" accept="image/jpeg,image/png,image/webp" multiple>
        <button type="submit">Send</button>
        </form>
        {{#canBlock}}
        <form class="inline" method="post" action="/users/{{otherUserID}}/block">
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <input type="hidden" name="back" value="/conversations/{{id}}">
        <button type="submit" class="small">Block {{otherName}}</button>
        </form>
        {{/canBlock}}
        {{/closed}}
        {{/content}}{{/layout}}
        """

    /// `offerForm`: making an offer, when the reader may; swapped live (an accept closes it).
    static let offerForm = """
        <div id="offer-form">
        {{#makeOffer}}
        <form method="post" action="{{action}}" class="card offer-form">
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <label for="offer-amount">Make an offer (asking {{asking}})</label>
        <input id="offer-amount" name="amount" inputmode="decimal" required placeholder="120.00">
        <button type="submit">Make an offer</button>
        </form>
        {{/makeOffer}}
        </div>
        """

    /// `messageList`: the messages, oldest first, then the outbox's; swapped live.
    static let messageList = """
        <ol id="message-list" class="messages" aria-live="polite">
        {{#messages}}
        <li class="message {{#mine}}mine{{/mine}}{{#offerLine}} offer-line{{/offerLine}}"><span class="who">{{who}}</span> <span class="body">{{body}}</span> <time datetime="{{isoTime}}">{{time}}</time>{{#hasPhotos}}<span class="photo-message">{{#photos}}<a href="{{full}}"><img src="{{medium}}" alt="{{label}}" loading="lazy" width="{{width}}" height="{{height}}"></a>{{/photos}}</span>{{/hasPhotos}}{{#mine}}{{^offerLine}} <span class="state sent">sent</span>{{/offerLine}}{{/mine}}{{#reportURL}} <a class="report" href="{{reportURL}}">Report</a>{{/reportURL}}
        {{#card}}
        <div class="offer-card" id="offer-{{id}}">
        <p><strong>{{headline}}</strong>: <span class="standing {{status}}">{{standing}}</span></p>
        {{#decisions}}<form class="inline" method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{nav.csrf}}"><button type="submit">{{title}}</button></form> {{/decisions}}
        </div>
        {{/card}}
        </li>
        {{/messages}}
        {{#pending}}
        <li class="message mine pending"><span class="who">You</span> <span class="body">{{body}}</span>{{#photoSummary}} <span class="photo-count">({{photoSummary}})</span>{{/photoSummary}} <span class="state {{stateClass}}">{{state}}</span></li>
        {{/pending}}
        {{^messages}}{{^pending}}<li class="empty">No messages yet. Say hello.</li>{{/pending}}{{/messages}}
        </ol>
        """
}
