/// The seller's own listing.
enum ListingTemplates {
    /// `listing`: edit, change the status, take down; plain forms.
    static let listing = """
        {{< layout}}{{$content}}
        <h1>{{heading}}</h1>
        <p><a href="/products/{{id}}">See it as buyers do</a> · <span class="status">{{status}}</span></p>
        {{^canChange}}<p>It is sold: it cannot change any more.</p>{{/canChange}}
        {{#canChange}}
        <form method="post" action="/products/{{id}}/edit" class="card" novalidate>
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        {{> productFields}}
        <button type="submit">Save changes</button>
        </form>
        {{#hasStatusChoices}}
        <form method="post" action="/products/{{id}}/status" class="card">
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <label for="listing-status">Mark it</label>
        <select id="listing-status" name="status">
        {{#statusChoices}}<option value="{{value}}">{{label}}</option>
        {{/statusChoices}}</select>
        {{#hasBuyers}}
        <label for="listing-buyer">Buyer (for reserved or sold)</label>
        <select id="listing-buyer" name="buyer">
        {{#buyers}}<option value="{{value}}">{{label}}</option>
        {{/buyers}}</select>
        {{/hasBuyers}}
        <button type="submit">Change status</button>
        </form>
        {{/hasStatusChoices}}
        {{^hasBuyers}}<p>Once someone messages you about it, you can reserve it for them or mark it sold.</p>{{/hasBuyers}}
        <form method="post" action="/products/{{id}}/remove" class="card">
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <p>Taking it down removes it for everyone; conversations about it stay.</p>
        <button type="submit">Take it down</button>
        </form>
        {{/canChange}}
        {{/content}}{{/layout}}
        """
}
