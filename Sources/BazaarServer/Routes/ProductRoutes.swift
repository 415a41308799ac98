import BazaarAPI
import Foundation
import Hummingbird

/// `/v1/products*`: list and search (cursor-paged, cacheable), read one, list one for sale.
struct ProductRoutes: RouteGroup {
    let deps: ServerDependencies

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.products) { request, _ in
            let limit = try QueryParameters.limit(request)
            let position = try Cursor.decodeSeq(QueryParameters.cursor(request, "cursor"), kind: .products)
            let query = QueryParameters.string(request, "query")
            if let query { try Validation.length(query, field: "query", 0...200) }
            let slice = try await deps.store.products(matching: query, before: position, limit: limit)
            let page = Page(items: slice.items, nextCursor: slice.next.map { Cursor.encode(.products, seq: $0) })
            return try JSONResponse.cacheable(page, request: request, cacheControl: "public, max-age=0, must-revalidate")
        }
        router.on(APIRoutes.product) { request, context in
            guard let product = try await deps.store.product(id: try context.pathId()) else {
                throw APIError.notFound("The product")
            }
            // Products do not change once listed, so a minute of caching is safe.
            return try JSONResponse.cacheable(product, request: request, cacheControl: "public, max-age=60")
        }
        router.on(APIRoutes.createProduct) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            let body = try await RequestBody.decode(CreateProductRequest.self, from: request)
            try Validation.product(body)
            let product = Product(
                id: deps.newId(), sellerId: caller.userId, title: body.title, description: body.description,
                priceCents: body.priceCents, currency: body.currency, createdAt: deps.now())
            try await deps.store.createProduct(product)
            return try JSONResponse.make(product, status: .created)
        }
    }
}
