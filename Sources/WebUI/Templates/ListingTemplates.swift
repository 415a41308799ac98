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
        <section class="card" id="photos">
        <h2>Photos</h2>
        {{#photoProblems}}<p class="error" role="alert">{{.}}</p>{{/photoProblems}}
        {{^photos}}<p>No photos yet: listings with photos are the ones people open.</p>{{/photos}}
        <ul class="photo-editor">
        {{#photos}}
        <li><img src="{{thumb}}" alt="{{label}}" width="{{width}}" height="{{height}}"><span>{{label}}</span>
        <span>{{^isCover}}<form class="inline" method="post" action="{{action}}/move"><input type="hidden" name="csrf" value="{{nav.csrf}}"><input type="hidden" name="to" value="0"><button type="submit" class="small">Make cover</button></form><form class="inline" method="post" action="{{action}}/move"><input type="hidden" name="csrf" value="{{nav.csrf}}"><input type="hidden" name="to" value="{{earlier}}"><button type="submit" class="small" aria-label="Move {{label}} earlier">←</button></form>{{/isCover}}{{^isLast}}<form class="inline" method="post" action="{{action}}/move"><input type="hidden" name="csrf" value="{{nav.csrf}}"><input type="hidden" name="to" value="{{later}}"><button type="submit" class="small" aria-label="Move {{label}} later">→</button></form>{{/isLast}}<form class="inline" method="post" action="{{action}}/remove"><input type="hidden" name="csrf" value="{{nav.csrf}}"><button type="submit" class="small" aria-label="Remove {{label}}">Remove</button></form></span></li>
        {{/photos}}
        </ul>
        {{#room}}
        <form method="post" action="/products/{{id}}/photos" class="card" enctype="multipart/form-data" data-upload>
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <label for="add-photos">Add photos ({{room}} more can go on it)</label>
        <input id="add-photos" name="photos" type="file" accept="image/jpeg,image/png,image/webp" multiple required>
        <progress max="100" value="0" hidden aria-label="Upload progress"></progress>
        <button type="submit">Add photos</button>
        </form>
        {{/room}}
        </section>
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
