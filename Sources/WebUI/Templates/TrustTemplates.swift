import BazaarAPI

/// Reporting, and the moderators' pages.
enum TrustTemplates {
    /// `report`: the report form, or the thanks once made.
    static let report = """
        {{< layout}}{{$content}}
        <h1>Report {{what}}</h1>
        {{#made}}<p class="notice" role="status">Thank you. The moderators will look at it, and you will be notified of what they do.</p>
        <p><a href="/products">Back to the products</a></p>{{/made}}
        {{^made}}
        <form method="post" action="/report" class="card" novalidate>
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <input type="hidden" name="type" value="{{type}}">
        <input type="hidden" name="id" value="{{id}}">
        <fieldset {{#reasonError}}aria-describedby="reason-error"{{/reasonError}}>
        <legend>Why do you report it?</legend>
        {{#reasons}}<label class="choice"><input type="radio" name="reason" value="{{value}}"{{#checked}} checked{{/checked}}> {{label}}</label>
        {{/reasons}}
        </fieldset>
        {{#reasonError}}<p id="reason-error" class="field-error">{{reasonError}}</p>{{/reasonError}}
        <label for="report-note">What should the moderators know? (optional)</label>
        <textarea id="report-note" name="note" maxlength="\(InputRules.reportNote.upperBound)" {{#noteError}}aria-invalid="true" aria-describedby="report-note-error"{{/noteError}}>{{note}}</textarea>
        {{#noteError}}<p id="report-note-error" class="field-error">{{noteError}}</p>{{/noteError}}
        <button type="submit">Send the report</button>
        </form>
        {{/made}}
        {{/content}}{{/layout}}
        """

    /// `moderation`: the queue.
    static let moderation = """
        {{< layout}}{{$content}}
        <h1>Moderation</h1>
        <p>{{#showingOpen}}Open reports, oldest first. <a href="/moderation?status=resolved">Resolved reports</a>{{/showingOpen}}{{^showingOpen}}Resolved reports. <a href="/moderation">Open reports</a>{{/showingOpen}}</p>
        <ul class="reports">
        {{#reports}}
        <li class="card"><a href="/moderation/{{id}}">{{summary}}</a> <time datetime="{{isoDate}}">{{date}}</time>{{#note}}<p>“{{note}}”</p>{{/note}}{{#action}}<p>Resolved: {{action}}</p>{{/action}}</li>
        {{/reports}}
        {{^reports}}<li>No reports here.</li>{{/reports}}
        </ul>
        {{/content}}{{/layout}}
        """

    /// `moderationReport`: one report in context, with its actions.
    static let moderationReport = """
        {{< layout}}{{$content}}
        <h1>{{summary}}</h1>
        <p>Reported by {{reporter}}, against <a href="/users/{{subjectID}}">{{subject}}</a>.</p>
        {{#note}}<blockquote>{{note}}</blockquote>{{/note}}
        {{#product}}<section class="card"><h2>The listing</h2><p><strong>{{title}}</strong> {{productPrice}}</p><p>{{description}}</p></section>{{/product}}
        {{#hasLines}}<h2>The conversation around it</h2>{{/hasLines}}
        <ol class="messages">
        {{#lines}}
        <li class="message{{#reported}} reported{{/reported}}"><span class="who">{{who}}</span> <span class="body">{{body}}</span> <time datetime="{{isoTime}}">{{time}}</time>{{#reported}} <strong>(reported)</strong>{{/reported}}</li>
        {{/lines}}
        </ol>
        {{#resolution}}<p class="notice" role="status">Resolved: {{resolution}}</p>{{/resolution}}
        {{#hasActions}}
        <form method="post" action="/moderation/{{id}}/resolve" class="card" novalidate>
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <label for="resolve-note">Why (kept with the action; the reporter is told the outcome)</label>
        <textarea id="resolve-note" name="note" maxlength="\(InputRules.reportNote.upperBound)" {{#noteError}}aria-invalid="true" aria-describedby="resolve-note-error"{{/noteError}}></textarea>
        {{#noteError}}<p id="resolve-note-error" class="field-error">{{noteError}}</p>{{/noteError}}
        <div class="actions">{{#actions}}<button type="submit" name="action" value="{{value}}">{{label}}</button> {{/actions}}</div>
        </form>
        {{/hasActions}}
        <p><a href="/moderation">Back to the queue</a></p>
        {{/content}}{{/layout}}
        """
}
