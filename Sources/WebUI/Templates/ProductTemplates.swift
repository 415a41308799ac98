import BazaarAPI

/// Browsing, a product's page, selling.
enum ProductTemplates {
    /// `products`: the search form, the list, and a link to more.
    static let products = """
        {{< layout}}{{$content}}
        <h1>{{heading}}</h1>
        <form method="get" action="/products" role="search" class="search">
        <label for="search">Search products</label>
        <input id="search" name="q" type="search" value="{{query}}"{{#queryError}} aria-invalid="true" aria-describedby="search-error"{{/queryError}}>
        {{#queryError}}<p id="search-error" class="field-error">The search {{queryError}}.</p>{{/queryError}}
        <fieldset class="filters">
        <legend>Filter and sort</legend>
        <label for="min-price">Lowest price</label>
        <input id="min-price" name="min" inputmode="decimal" size="8" value="{{minPrice}}"{{#minError}} aria-invalid="true" aria-describedby="min-price-error"{{/minError}}>
        {{#minError}}<p id="min-price-error" class="field-error">{{minError}}</p>{{/minError}}
        <label for="max-price">Highest price</label>
        <input id="max-price" name="max" inputmode="decimal" size="8" value="{{maxPrice}}"{{#maxError}} aria-invalid="true" aria-describedby="max-price-error"{{/maxError}}>
        {{#maxError}}<p id="max-price-error" class="field-error">{{maxError}}</p>{{/maxError}}
        <label for="sort">Order</label>
        <select id="sort" name="sort">
        {{#sortOptions}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>
        {{/sortOptions}}</select>
        {{#seller}}<input type="hidden" name="seller" value="{{seller}}">{{/seller}}
        </fieldset>
        <button type="submit">Search</button>
        </form>
        {{^products}}<p>{{#searched}}Nothing found.{{/searched}}{{^searched}}Nothing is for sale yet.{{/searched}}</p>{{/products}}
        <ul class="products cards">
        {{#products}}
        <li>{{#card}}{{> productCard}}{{/card}}
        {{#canSave}}<form class="inline" method="post" action="/products/{{id}}/{{#isSaved}}unsave{{/isSaved}}{{^isSaved}}save{{/isSaved}}"><input type="hidden" name="csrf" value="{{nav.csrf}}"><input type="hidden" name="back" value="{{back}}"><button type="submit" class="small" aria-label="{{#isSaved}}Remove {{title}} from saved{{/isSaved}}{{^isSaved}}Save {{title}}{{/isSaved}}">{{#isSaved}}Saved ✓{{/isSaved}}{{^isSaved}}Save{{/isSaved}}</button></form>{{/canSave}}</li>
        {{/products}}
        </ul>
        {{#moreURL}}<p><a href="{{moreURL}}">Show more products</a></p>{{/moreURL}}
        {{/content}}{{/layout}}
        """

    /// `product`: one product, its seller, and a form to message them.
    static let product = """
        {{< layout}}{{$content}}
        <article class="card">
        <h1>{{title}}</h1>
        <p class="price">{{price}}</p>
        <p>{{description}}</p>
        {{#hasPhotos}}<ul class="photos">{{#photos}}<li><a href="{{full}}"><img src="{{medium}}" alt="Photo {{number}} of {{title}}, opens at full size" loading="lazy" width="{{width}}" height="{{height}}"></a></li>{{/photos}}</ul>{{/hasPhotos}}
        <p>Sold by <a href="/users/{{sellerId}}">{{sellerName}} (@{{sellerUsername}})</a> · <span class="rating">{{#sellerStars}}<span class="stars" role="img" aria-label="Rated {{sellerRating}}">{{sellerStars}}</span> {{/sellerStars}}{{sellerRating}}</span> · <a href="/products?seller={{sellerId}}&amp;sort=newest">More from {{sellerName}}</a></p>
        <p class="status">{{status}} · saved by {{savedBy}}</p>
        {{#canSave}}
        <form class="inline" method="post" action="/products/{{id}}/{{#isSaved}}unsave{{/isSaved}}{{^isSaved}}save{{/isSaved}}">
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <button type="submit">{{#isSaved}}Saved ✓ · Remove{{/isSaved}}{{^isSaved}}Save{{/isSaved}}</button>
        </form>
        {{/canSave}}
        {{#isMine}}<p><a href="/products/{{id}}/edit">Edit, mark reserved or sold, or take down your listing</a></p>{{/isMine}}
        {{#canSave}}<p class="report"><a href="/report?type=product&amp;id={{id}}">Report this listing</a></p>{{/canSave}}
        </article>
        {{#canMessage}}
        <form method="post" action="/products/{{id}}/message" class="card">
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        <label for="message">Message the seller</label>
        <textarea id="message" name="body" required maxlength="\(InputRules.messageBody.upperBound)">Hi! Is it still available?</textarea>
        <button type="submit">Send message to {{sellerName}}</button>
        </form>
        {{/canMessage}}
        {{#signInToMessage}}<p><a href="/signin">Sign in to message the seller</a></p>{{/signInToMessage}}
        {{/content}}{{/layout}}
        """

    /// `productCard`: a product in a list, as a card (see ``ProductCardView``).
    static let productCard = """
        <a class="product-card" href="/products/{{id}}"><span class="cover">{{#cover}}<img src="{{cover}}" srcset="{{coverSet}}" sizes="(max-width: 480px) calc(100vw - 48px), 240px" alt="" loading="lazy" width="{{coverWidth}}" height="{{coverHeight}}">{{/cover}}{{^cover}}<span class="no-photo">No photo yet</span>{{/cover}}</span><span class="title">{{title}}</span> <span class="price">{{price}}</span> <span class="status {{^isAvailable}}taken{{/isAvailable}}">{{status}}</span></a>
        """

    /// `sell`: the sell form, each error beside its field.
    static let sell = """
        {{< layout}}{{$content}}
        <h1>Sell something</h1>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/sell" class="card" novalidate enctype="multipart/form-data" data-upload data-photo-picker>
        <input type="hidden" name="csrf" value="{{nav.csrf}}">
        {{> productFields}}
        {{#form}}
        <label for="sell-photos">Photos: up to \(Product.photoLimit), JPEG, PNG or WebP, at most 5 MiB each; the first is the cover</label>
        <input id="sell-photos" name="photos" type="file" accept="image/jpeg,image/png,image/webp" multiple {{#photosError}}aria-invalid="true" aria-describedby="sell-photos-error"{{/photosError}}>
        {{#photosError}}<p id="sell-photos-error" class="field-error">{{photosError}}</p>{{/photosError}}
        {{/form}}
        <ul class="photo-editor" data-preview hidden></ul>
        <progress max="100" value="0" hidden aria-label="Upload progress"></progress>
        <button type="submit">Put it up for sale</button>
        </form>
        {{/content}}{{/layout}}
        """

    /// `productFields`: a product's fields (selling or editing), each error beside its field.
    static let productFields = """
        {{#form}}
        <label for="sell-title">Title</label>
        <input id="sell-title" name="title" value="{{titleValue}}" {{#titleError}}aria-invalid="true" aria-describedby="sell-title-error"{{/titleError}}>
        {{#titleError}}<p id="sell-title-error" class="field-error">{{titleError}}</p>{{/titleError}}
        <label for="sell-description">Description</label>
        <textarea id="sell-description" name="description" {{#descriptionError}}aria-invalid="true" aria-describedby="sell-description-error"{{/descriptionError}}>{{description}}</textarea>
        {{#descriptionError}}<p id="sell-description-error" class="field-error">{{descriptionError}}</p>{{/descriptionError}}
        <label for="sell-price">Price</label>
        <input id="sell-price" name="price" inputmode="decimal" value="{{price}}" {{#priceError}}aria-invalid="true" aria-describedby="sell-price-error"{{/priceError}}>
        {{#priceError}}<p id="sell-price-error" class="field-error">{{priceError}}</p>{{/priceError}}
        <label for="sell-currency">Currency</label>
        <input id="sell-currency" name="currency" value="{{currency}}" maxlength="3" {{#currencyError}}aria-invalid="true" aria-describedby="sell-currency-error"{{/currencyError}}>
        {{#currencyError}}<p id="sell-currency-error" class="field-error">{{currencyError}}</p>{{/currencyError}}
        {{/form}}
        """
}
