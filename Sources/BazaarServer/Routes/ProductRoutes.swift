import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import Hummingbird

/// `/v1/products*`: list and search (cursor-paged, cacheable), read one, and the seller's
/// changes (list, edit, status, take down), which ``ListingService`` decides.
struct ProductRoutes: RouteGroup {
    let deps: ServerDependencies

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.products) { request, _ in
            let parameters = ParsedQuery(request)
            let limit = try QueryParameters.limit(parameters)
            let search = try ProductListParameters(parameters)
            let query = ProductQuery(
                search: search.expression, filters: search.filters, order: search.order,
                after: try Cursor.decodeProducts(QueryParameters.cursor(parameters, "cursor"), order: search.order),
                limit: limit)
            return try await JSONResponse.cacheable(
                key: search.cacheKey(cursor: query.after, limit: limit), in: deps.publicReads, request: request,
                cacheControl: "public, max-age=0, must-revalidate"
            ) {
                let page = try await deps.store.products(query)
                return Page(items: page.items, nextCursor: page.next.map { Cursor.encode($0, order: query.order) })
            }
        }
        router.on(APIRoutes.product) { request, context in
            let id = try context.pathId("The product")
            // A product changes (price, status), so clients revalidate; the ETag makes that a 304.
            return try await JSONResponse.cacheable(
                key: "product\u{0}" + id, in: deps.publicReads, request: request,
                cacheControl: "public, max-age=0, must-revalidate"
            ) {
                guard let product = try await deps.store.product(id: id) else { throw APIError.notFound("The product") }
                return product
            }
        }
        router.on(APIRoutes.createProduct) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            let body = try await RequestBody.decode(CreateProductRequest.self, from: request)
            return try JSONResponse.make(
                try await deps.services.listings.create(body, by: caller.userId), status: .created)
        }
        router.on(APIRoutes.updateProduct) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let id = try context.pathId("The product")
            let body = try await RequestBody.decode(UpdateProductRequest.self, from: request)
            return try JSONResponse.make(try await deps.services.listings.edit(id, with: body, by: caller.userId))
        }
        router.on(APIRoutes.changeProductStatus) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let id = try context.pathId("The product")
            let body = try await RequestBody.decode(ChangeProductStatusRequest.self, from: request)
            return try JSONResponse.make(try await deps.services.listings.changeStatus(id, to: body, by: caller.userId))
        }
        router.on(APIRoutes.saveFavourite) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            try await deps.services.favourites.save(try context.pathId("The product"), for: caller.userId)
            return Response(status: .noContent)
        }
        router.on(APIRoutes.removeFavourite) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            try await deps.services.favourites.remove(try context.pathId("The product"), for: caller.userId)
            return Response(status: .noContent)
        }
        router.on(APIRoutes.favourites) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            let limit = try QueryParameters.limit(request, default: 20)
            let position = try Cursor.decodeSeq(QueryParameters.cursor(request, "cursor"), kind: .favourites)
            let slice = try await deps.services.favourites.saved(by: caller.userId, before: position, limit: limit)
            return try JSONResponse.make(
                Page(items: slice.items, nextCursor: slice.next.map { Cursor.encode(.favourites, seq: $0) }))
        }
        router.on(APIRoutes.reviewProduct) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let id = try context.pathId("The product")
            let body = try await RequestBody.decode(CreateReviewRequest.self, from: request)
            return try JSONResponse.make(
                try await deps.services.reviews.review(id, with: body, by: caller.userId), status: .created)
        }
        router.on(APIRoutes.userReviews) { request, context in
            let limit = try QueryParameters.limit(request, default: 20)
            let position = try Cursor.decodeSeq(QueryParameters.cursor(request, "cursor"), kind: .reviews)
            let slice = try await deps.services.reviews.reviews(
                of: try context.pathId("The user"), before: position, limit: limit)
            return try JSONResponse.make(
                Page(items: slice.items, nextCursor: slice.next.map { Cursor.encode(.reviews, seq: $0) }))
        }
        router.on(APIRoutes.deleteProduct) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let id = try context.pathId("The product")
            try await deps.services.listings.delete(id, by: caller.userId)
            return Response(status: .noContent)
        }
    }
}
