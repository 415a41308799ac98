import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import Hummingbird

/// `/v1/products/{id}/photos*`: a seller adds, orders and removes a product's photos (up to
/// ``ProductPhotoOrder/limit``); anyone reads them. For anyone but the seller the product's photos
/// do not exist (404, as for every resource that is not the caller's).
struct ProductPhotoRoutes: RouteGroup {
    let deps: ServerDependencies

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.addProductPhoto) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let productId = try context.pathId("The product or photo")
            let sizes = try await UploadedImage.receive(request, chargedTo: caller.userId, deps: deps)
            let change = try await deps.store.addProductPhoto(
                productId: productId, sellerId: caller.userId, photo: NewProductPhoto(id: deps.newId(), sizes: sizes))
            return try await answer(change, status: .created)
        }
        router.on(APIRoutes.reorderProductPhotos) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let productId = try context.pathId("The product or photo")
            let body = try await RequestBody.decode(ReorderPhotosRequest.self, from: request)
            guard body.photoIds.count <= ProductPhotoOrder.limit, body.photoIds.allSatisfy(Validation.isId) else {
                throw APIError.invalidField("photoIds", "must name each of the product's photos exactly once")
            }
            try deps.quotas.charge(.edit, by: caller.userId)
            let change = try await deps.store.reorderProductPhotos(
                productId: productId, sellerId: caller.userId, order: body.photoIds)
            return try await answer(change, status: .ok)
        }
        router.on(APIRoutes.removeProductPhoto) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            try deps.quotas.charge(.edit, by: caller.userId)
            let change = try await deps.store.removeProductPhoto(
                productId: try context.pathId("The product or photo"), sellerId: caller.userId,
                photoId: try context.photoId("The product or photo"))
            return try await answer(change, status: .ok)
        }
        router.on(APIRoutes.productPhoto) { request, context in
            guard
                let photo = try await deps.store.productPhoto(
                    productId: try context.pathId("The photo"), photoId: try context.photoId("The photo"),
                    size: try UploadedImage.size(request))
            else { throw APIError.notFound("The photo") }
            // A photo's URL names one upload: what it serves never changes.
            return UploadedImage.response(photo, request: request, cacheControl: "public, max-age=31536000, immutable")
        }
    }

    /// The product after a change (lists and pages cached in memory are dropped), or the error.
    private func answer(_ change: ProductPhotoChange, status: HTTPResponse.Status) async throws -> Response {
        switch change {
        case .changed(let product):
            await deps.events.productsChanged()
            return try JSONResponse.make(product, status: status)
        case .notFound:
            throw APIError.notFound("The product or photo")
        case .limitReached:
            throw APIError.invalidField("photos", "a product has at most \(ProductPhotoOrder.limit) photos")
        case .storageFull:
            throw APIError.invalidField(
                "photos",
                "a seller's product photos take at most \(ProductPhotoOrder.bytesPerSeller >> 20) MiB in all; remove some first"
            )
        case .mismatch:
            throw APIError.invalidField("photoIds", "must name each of the product's photos exactly once")
        }
    }
}

extension BazaarRequestContext {
    /// The `{photo}` path parameter: 404 naming `resource` unless it is an id (see ``pathId(_:)``).
    func photoId(_ resource: String) throws -> String {
        guard let id = parameters.get("photo"), Validation.isId(id) else { throw APIError.notFound(resource) }
        return id
    }
}
