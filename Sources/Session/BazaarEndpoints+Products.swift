import BazaarAPI
import Foundation
import Networking

/// Products: the catalogue, one's listings and their photos, favourites and reviews.
extension BazaarEndpoints {
    /// `GET /v1/products`: a page of products, optionally matching `query`.
    public static func products(query: String? = nil, cursor: String? = nil, limit: Int? = nil)
        -> NonAuthenticatedEndpoint<Page<Product>>
    {
        products(search: ProductSearch(text: query), cursor: cursor, limit: limit)
    }

    /// `GET /v1/products`: a page of the products `search` finds (text, price range, seller) in
    /// its order; `cursor` continues from the previous page of the same search.
    public static func products(search: ProductSearch, cursor: String? = nil, limit: Int? = nil)
        -> NonAuthenticatedEndpoint<Page<Product>>
    {
        var query = QueryParameters(search.queryParameters.map { QueryParameters.Item(name: $0.name, value: $0.value) })
        if let cursor { query.append("cursor", cursor) }
        if let limit { query.append("limit", limit) }
        return NonAuthenticatedEndpoint(.get, APIRoutes.products.template, parameters: .url(query))
    }

    /// `POST /v1/products/{id}/photos`: add a photo (JPEG, PNG or WebP bytes) as the last of one
    /// of your products; send it with a progress handler to follow the upload.
    public static func addProductPhoto(productId: String, image: Data, mediaType: MediaType) -> AuthenticatedEndpoint<
        Product
    > {
        AuthenticatedEndpoint(
            .post, APIRoutes.addProductPhoto.path(productId), parameters: .raw(image, mediaType: mediaType))
    }

    /// `PUT /v1/products/{id}/photos`: put one of your products' photos in a new order, cover first.
    public static func reorderProductPhotos(productId: String, photoIds: [String]) -> AuthenticatedEndpoint<Product> {
        AuthenticatedEndpoint(
            .put, APIRoutes.reorderProductPhotos.path(productId),
            parameters: .json(ReorderPhotosRequest(photoIds: photoIds)))
    }

    /// `GET /v1/products/{id}/photos/{photo}`: one photo's bytes (cacheable for a year: its URL
    /// names one upload).
    public static func productPhoto(productId: String, photoId: String) -> NonAuthenticatedEndpoint<Data> {
        NonAuthenticatedEndpoint(.get, APIRoutes.productPhoto.path(productId, photoId))
    }

    /// `DELETE /v1/products/{id}/photos/{photo}`: remove a photo from one of your products.
    public static func removeProductPhoto(productId: String, photoId: String) -> AuthenticatedEndpoint<Product> {
        AuthenticatedEndpoint(.delete, APIRoutes.removeProductPhoto.path(productId, photoId))
    }

    /// `GET /v1/products/{id}`: one product.
    public static func product(id: String) -> NonAuthenticatedEndpoint<Product> {
        NonAuthenticatedEndpoint(.get, APIRoutes.product.path(id))
    }

    /// `POST /v1/products`: list a product for sale.
    public static func createProduct(_ body: CreateProductRequest) -> AuthenticatedEndpoint<Product> {
        AuthenticatedEndpoint(.post, APIRoutes.createProduct.template, parameters: .json(body))
    }

    /// `PATCH /v1/products/{id}`: change the title, description, price or currency of one of
    /// your products (fields left `nil` stay).
    public static func updateProduct(id: String, _ body: UpdateProductRequest) -> AuthenticatedEndpoint<Product> {
        AuthenticatedEndpoint(.patch, APIRoutes.updateProduct.path(id), parameters: .json(body))
    }

    /// `PUT /v1/products/{id}/status`: mark one of your products available, reserved or sold
    /// (the last two for a buyer you have a conversation with about it).
    public static func changeProductStatus(id: String, _ body: ChangeProductStatusRequest)
        -> AuthenticatedEndpoint<Product>
    {
        AuthenticatedEndpoint(.put, APIRoutes.changeProductStatus.path(id), parameters: .json(body))
    }

    /// `PUT /v1/products/{id}/favourite`: save a product (saving it again changes nothing).
    public static func saveFavourite(productId: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.put, APIRoutes.saveFavourite.path(productId))
    }

    /// `DELETE /v1/products/{id}/favourite`: stop saving a product.
    public static func removeFavourite(productId: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.delete, APIRoutes.removeFavourite.path(productId))
    }

    /// `GET /v1/users/me/favourites`: a page of the products you saved, most recently saved first.
    public static func favourites(cursor: String? = nil, limit: Int? = nil) -> AuthenticatedEndpoint<Page<Product>> {
        AuthenticatedEndpoint(
            .get, APIRoutes.favourites.template, parameters: .url(["cursor": cursor, "limit": limit]))
    }

    /// `POST /v1/products/{id}/reviews`: review the other party of the sale of a product you sold or bought.
    public static func reviewProduct(id: String, _ body: CreateReviewRequest) -> AuthenticatedEndpoint<Review> {
        AuthenticatedEndpoint(.post, APIRoutes.reviewProduct.path(id), parameters: .json(body))
    }

    /// `GET /v1/users/{id}/reviews`: a page of the reviews a user received, newest first.
    public static func reviews(userId: String, cursor: String? = nil, limit: Int? = nil)
        -> NonAuthenticatedEndpoint<Page<Review>>
    {
        NonAuthenticatedEndpoint(
            .get, APIRoutes.userReviews.path(userId), parameters: .url(["cursor": cursor, "limit": limit]))
    }

    /// `DELETE /v1/products/{id}`: take one of your products down for good.
    public static func deleteProduct(id: String) -> AuthenticatedEndpoint<EmptyResponse> {
        AuthenticatedEndpoint(.delete, APIRoutes.deleteProduct.path(id))
    }
}
