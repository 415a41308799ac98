/// The saved-products page.
enum SavedTemplates {
    /// `saved`: what the person saved, each with a way to remove it.
    static let saved = """
        {{< layout}}{{$content}}
        <h1>Saved</h1>
        {{#isEmpty}}<p>Nothing saved yet. Every product has a Save button, in the lists and on its page.</p>{{/isEmpty}}
        <ul class="notifications">
        {{#products}}
        <li class="card">
        <a href="/products/{{id}}">{{title}}</a> <span class="price">{{price}}</span> <span class="status">{{status}}</span>
        <form class="inline" method="post" action="/products/{{id}}/unsave?back=saved">
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <button type="submit" aria-label="Remove {{title}} from saved">Remove</button>
        </form>
        </li>
        {{/products}}
        </ul>
        {{/content}}{{/layout}}
        """
}
