/// A seller's page, and the review form.
enum SellerTemplates {
    /// `seller`: the person, their stars and reviews, their listings.
    static let seller = """
        {{< layout}}{{$content}}
        <section class="card">
        {{#photoURL}}<img src="{{photoURL}}" alt="" width="96" height="96">{{/photoURL}}
        <h1>{{displayName}}</h1>
        <p>@{{username}}{{#isMe}} · this is you{{/isMe}}</p>
        <p class="rating">{{#stars}}<span class="stars" role="img" aria-label="{{ratingLabel}}">{{stars}}</span> {{/stars}}<span>{{ratingSummary}}</span></p>
        {{#bio}}<p>{{bio}}</p>{{/bio}}
        {{#canAct}}
        <form class="inline" method="post" action="/users/{{id}}/block">
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <button type="submit" class="small">Block {{displayName}}</button>
        </form>
        <a href="/report?type=user&amp;id={{id}}">Report {{displayName}}</a>
        {{/canAct}}
        </section>
        <h2>Reviews</h2>
        <ul class="reviews">
        {{#reviews}}
        <li><span class="stars" role="img" aria-label="{{rating}} of 5 stars">{{stars}}</span> <strong>{{author}}</strong> <time datetime="{{isoDate}}">{{date}}</time>{{#text}}<p>{{text}}</p>{{/text}}</li>
        {{/reviews}}
        {{^reviews}}<li>No reviews yet.</li>{{/reviews}}
        </ul>
        <h2>Listings</h2>
        <ul class="products cards">
        {{#listings}}
        <li>{{#card}}{{> productCard}}{{/card}}</li>
        {{/listings}}
        {{^listings}}<li>Nothing listed.</li>{{/listings}}
        </ul>
        {{/content}}{{/layout}}
        """

    /// `reviewForm`: reviewing the other party of a sale.
    static let reviewForm = """
        <form method="post" action="{{action}}" class="card" novalidate>
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        {{#conversation}}<input type="hidden" name="conversation" value="{{conversation}}">{{/conversation}}
        <label for="review-rating">Your rating of this sale</label>
        <select id="review-rating" name="rating" {{#ratingError}}aria-invalid="true" aria-describedby="review-rating-error"{{/ratingError}}>
        {{#options}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>
        {{/options}}</select>
        {{#ratingError}}<p id="review-rating-error" class="field-error">{{ratingError}}</p>{{/ratingError}}
        <label for="review-text">What you want to say (optional)</label>
        <textarea id="review-text" name="text" maxlength="1000" {{#textError}}aria-invalid="true" aria-describedby="review-text-error"{{/textError}}>{{text}}</textarea>
        {{#textError}}<p id="review-text-error" class="field-error">{{textError}}</p>{{/textError}}
        <button type="submit">Leave a review</button>
        </form>
        """
}
