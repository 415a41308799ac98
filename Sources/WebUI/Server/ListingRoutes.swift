import BazaarAPI
import Dependencies
import Foundation
import Hummingbird

extension WebApp {
    /// The seller's own listing: its page, and the edit, status and take-down forms.
    func addListingRoutes(to router: Router<BasicRequestContext>) {
        router.get("/products/{id}/edit") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.productsModule.listingScreen(id: id).logic
                    return page.show(await logic.send(.load), template: "listing", heading: "No such listing") {
                        ListingView(content: $0, nav: page.nav())
                    }
                }
            }
        }
        router.post("/products/{id}/edit") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.productsModule.listingScreen(id: id).logic
                    let loaded = await logic.send(.load)
                    guard loaded.content != nil else {
                        return page.failed(loaded.error ?? Self.noListing, heading: "No such listing")
                    }
                    let draft = SellDraft(
                        title: page.form["title"] ?? "", description: page.form["description"] ?? "",
                        price: page.form["price"] ?? "", currency: page.form["currency"] ?? "EUR")
                    let state = await logic.send(.edit(draft))
                    if let content = state.content, !content.fieldErrors.isEmpty {
                        return page.render(
                            ListingView(content: content, nav: page.nav()), "listing", status: .unprocessableContent)
                    }
                    return state.error.map { page.failed($0, heading: "The listing was not changed") }
                        ?? page.redirect(to: "/products/\(id)")
                }
            }
        }
        router.post("/products/{id}/status") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    guard let status = ProductStatus(rawValue: page.form["status"] ?? "") else {
                        return page.failed(
                            ScreenError(kind: .invalidInput, message: "Choose available, reserved or sold."),
                            heading: "The status was not changed")
                    }
                    let buyer = status == .available ? nil : page.form["buyer"]
                    let logic = try page.dependencies.productsModule.listingScreen(id: id).logic
                    let state = await logic.send(.setStatus(status, buyerID: buyer))
                    return state.error.map { page.failed($0, heading: "The status was not changed") }
                        ?? page.redirect(to: "/products/\(id)/edit")
                }
            }
        }
        router.post("/products/{id}/remove") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { user in
                    let logic = try page.dependencies.productsModule.listingScreen(id: id).logic
                    let state = await logic.send(.takeDown)
                    return state.error.map { page.failed($0, heading: "The listing was not taken down") }
                        ?? page.redirect(to: "/users/\(user.id)")
                }
            }
        }
    }

    private static let noListing = ScreenError(kind: .notFound, message: "You have no listing with that id.")
}
