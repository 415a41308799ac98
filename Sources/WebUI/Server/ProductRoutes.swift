import BazaarAPI
import Dependencies
import Foundation
import Hummingbird

extension WebApp {
    func addProductRoutes(to router: Router<BasicRequestContext>) {
        router.get("/products") { request, context in
            try await page(request, context) { page in
                let form = ProductSearchForm(request)
                let pages = min(max(request.uri.queryParameters.get("pages", as: Int.self) ?? 1, 1), 25)
                guard let search = form.search else {
                    // A price that does not read: the form again, with the reason beside the field.
                    return page.render(
                        ProductListView(
                            form: form, content: nil, pages: pages, nav: page.nav(), server: page.serverURL),
                        "products",
                        status: .unprocessableContent)
                }
                let logic = try page.dependencies.productsModule.productListScreen(pageSize: 20).logic
                await logic.send(.search(search))
                let state = await logic.send(.loadAtLeast(pages * 20))
                if case .failed(let error) = state, error.kind == .invalidInput {
                    // The server refused the search itself (nothing to look for): say so under the box.
                    var refused = form
                    refused.errors["q"] = error.message
                    return page.render(
                        ProductListView(
                            form: refused, content: nil, pages: pages, nav: page.nav(), server: page.serverURL),
                        "products",
                        status: .unprocessableContent)
                }
                // The Save buttons say which are saved.
                let saved = await page.savedProductIDs()
                return page.show(state, template: "products") {
                    ProductListView(
                        form: form, content: $0, pages: pages, nav: page.nav(), server: page.serverURL, me: page.user,
                        saved: saved)
                }
            }
        }
        router.get("/products/{id}") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context) { page in
                let logic = try page.dependencies.productsModule.productScreen(id: id).logic
                let state = await logic.send(.load)
                let isSaved = await page.savedProductIDs().contains(id)
                return page.show(state, template: "product", heading: "No such product") {
                    ProductDetailView(
                        content: $0, me: page.user, nav: page.nav(), server: page.serverURL, isSaved: isSaved)
                }
            }
        }
        for (path, save) in [("save", true), ("unsave", false)] {
            router.post("/products/{id}/\(path)") { request, context in
                let id = try context.parameters.require("id")
                let back = request.uri.queryParameters.get("back") == "saved" ? "/saved" : "/products/\(id)"
                return try await page(request, context, mutating: true) { page in
                    try await page.signedIn { _ in
                        let back = page.form["back"].flatMap(Self.listAddress) ?? back
                        let logic = try page.dependencies.favouritesModule.favouritesScreen().logic
                        let state = await logic.send(save ? .save(productId: id) : .remove(productId: id))
                        return state.error.map { page.failed($0, heading: "Not saved") } ?? page.redirect(to: back)
                    }
                }
            }
        }
        router.get("/saved") { request, context in
            try await page(request, context) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.favouritesModule.favouritesScreen().logic
                    return page.show(await logic.send(.load), template: "saved") {
                        SavedView(content: $0, nav: page.nav())
                    }
                }
            }
        }
        router.post("/products/{id}/message") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    let detail = await (try page.dependencies.productsModule.productScreen(id: id).logic).send(.load)
                    guard let content = detail.content else {
                        return page.failed(detail.error ?? ScreenError(kind: .notFound, message: "No such product."))
                    }
                    let chat = try page.dependencies.chatModule.messagesScreen(
                        user: content.seller, product: content.product
                    ).logic
                    let opened = await chat.send(.load)
                    guard let conversation = opened.content?.conversation else {
                        return page.failed(
                            opened.error ?? ScreenError(kind: .other, message: "The conversation did not open."))
                    }
                    let body = (page.form["body"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                    if !body.isEmpty { await chat.send(.send(body)) }
                    return page.redirect(to: "/conversations/\(conversation.id)")
                }
            }
        }
        router.get("/sell") { request, context in
            try await page(request, context) { page in
                await page.signedIn { _ in page.render(SellView(content: SellContent(), nav: page.nav()), "sell") }
            }
        }
        router.post("/sell") { request, context in
            try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    var draft = SellDraft(
                        title: page.form["title"] ?? "", description: page.form["description"] ?? "",
                        price: page.form["price"] ?? "",
                        currency: page.form["currency"] ?? "EUR")
                    switch page.photos("photos") {
                    case .success(let photos): draft.photos = photos
                    case .failure(let error):
                        return page.render(
                            SellView(
                                content: SellContent(draft: draft, fieldErrors: [.photos: error.message]),
                                nav: page.nav()),
                            "sell", status: .unprocessableContent)
                    }
                    let state = await (try page.dependencies.productsModule.sellScreen().logic).send(.sell(draft))
                    switch state {
                    case .presenting(let content):
                        if let listed = content.listed, !content.photoProblems.isEmpty {
                            // Listed, but not with every photo: the listing's page says which, where
                            // more can be added.
                            let listing = ListingContent(product: listed, photoProblems: content.photoProblems)
                            return page.render(
                                ListingView(content: listing, nav: page.nav(), server: page.serverURL), "listing",
                                status: .unprocessableContent)
                        }
                        if let listed = content.listed { return page.redirect(to: "/products/\(listed.id)") }
                        return page.render(
                            SellView(content: content, nav: page.nav()), "sell", status: .unprocessableContent)
                    case .failed(let error):
                        return page.render(
                            SellView(content: SellContent(draft: draft), error: error.message, nav: page.nav()), "sell",
                            status: .unprocessableContent)
                    case .loading:
                        return page.redirect(to: "/sell")
                    }
                }
            }
        }
    }

    /// `text` when it is the address of a product list on this site (`/products` with a query), so a
    /// form may send the person back there and nowhere else.
    static func listAddress(_ text: String) -> String? {
        guard text == "/products" || text.hasPrefix("/products?"), !text.contains("//"), !text.contains("\\"),
            text.count <= 2048
        else { return nil }
        return text
    }
}

extension WebPage {
    /// The ids of the products the signed-in person saved, among their newest saves (a Save
    /// button on an older one says Save, and saving again is harmless); none for a visitor, or
    /// when the list cannot be read (the page still draws, its buttons saying Save).
    func savedProductIDs() async -> Set<String> {
        guard user != nil, let logic = try? dependencies.favouritesModule.favouritesScreen().logic else { return [] }
        return Set(await logic.send(.load).content?.products.map(\.id) ?? [])
    }
}
