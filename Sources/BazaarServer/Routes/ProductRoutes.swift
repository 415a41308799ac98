import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import Hummingbird

/// `/v1/products*`: list and search (cursor-paged, cacheable), read one, list one for sale.
struct ProductRoutes: RouteGroup {
    let deps: ServerDependencies

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.products) { request, _ in
            let parameters = request.uri.queryParameters
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
            // Products do not change once listed, so a minute of caching is safe.
            return try await JSONResponse.cacheable(
                key: "product\u{0}" + id, in: deps.publicReads, request: request, cacheControl: "public, max-age=60"
            ) {
                guard let product = try await deps.store.product(id: id) else { throw APIError.notFound("The product") }
                return product
            }
        }
        router.on(APIRoutes.createProduct) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            let body = try await RequestBody.decode(CreateProductRequest.self, from: request)
            try Validation.product(body)
            try deps.quotas.charge(.listProduct, by: caller.userId)
            let product = Product(
                id: deps.newId(), sellerId: caller.userId, title: body.title, description: body.description,
                priceCents: body.priceCents, currency: body.currency, createdAt: deps.now())
            try await deps.store.createProduct(product)
            await deps.events.productsChanged()
            return try JSONResponse.make(product, status: .created)
        }
    }
}
