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
                        ListingView(content: $0, nav: page.nav(), server: page.serverURL)
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
                            ListingView(content: content, nav: page.nav(), server: page.serverURL), "listing",
                            status: .unprocessableContent)
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

    /// Adding, moving and removing a listing's photos: plain forms, each answered with the
    /// listing's page (at its photos) or the page with what the server refused.
    func addListingPhotoRoutes(to router: Router<BasicRequestContext>) {
        router.post("/products/{id}/photos") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.productsModule.listingScreen(id: id).logic
                    let photos: [PhotoToSend]
                    switch page.photos("photos") {
                    case .success(let chosen) where !chosen.isEmpty: photos = chosen
                    case .success: return await Self.refused("Choose at least one photo.", logic: logic, page: page)
                    case .failure(let error): return await Self.refused(error.message, logic: logic, page: page)
                    }
                    return Self.listingPage(await logic.send(.addPhotos(photos)), id: id, page: page)
                }
            }
        }
        router.post("/products/{id}/photos/{photo}/move") { request, context in
            let id = try context.parameters.require("id")
            let photo = try context.parameters.require("photo")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    guard let position = Int(page.form["to"] ?? ""), (0..<Product.photoLimit).contains(position) else {
                        return page.failed(
                            ScreenError(kind: .invalidInput, message: "Say where the photo goes."),
                            heading: "The photos were not changed")
                    }
                    let logic = try page.dependencies.productsModule.listingScreen(id: id).logic
                    return Self.listingPage(await logic.send(.movePhoto(photo, to: position)), id: id, page: page)
                }
            }
        }
        router.post("/products/{id}/photos/{photo}/remove") { request, context in
            let id = try context.parameters.require("id")
            let photo = try context.parameters.require("photo")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.productsModule.listingScreen(id: id).logic
                    return Self.listingPage(await logic.send(.removePhoto(photo)), id: id, page: page)
                }
            }
        }
    }

    /// The listing's page again, saying why no photo was added (nothing was sent).
    static func refused(_ reason: String, logic: any ListingLogic, page: WebPage) async -> Response {
        let loaded = await logic.send(.load)
        guard var content = loaded.content else {
            return page.failed(loaded.error ?? noListing, heading: "No such listing")
        }
        content.photoProblems = [reason]
        return page.render(
            ListingView(content: content, nav: page.nav(), server: page.serverURL), "listing",
            status: .unprocessableContent)
    }

    /// The listing's page after a change to its photos: back to the photos when all went well,
    /// else the page with what was refused.
    static func listingPage(_ state: ScreenState<ListingContent>, id: String, page: WebPage) -> Response {
        switch state {
        case .presenting(let content) where !content.photoProblems.isEmpty:
            return page.render(
                ListingView(content: content, nav: page.nav(), server: page.serverURL), "listing",
                status: .unprocessableContent)
        case .presenting, .loading:
            return page.redirect(to: "/products/\(id)/edit#photos")
        case .failed(let error):
            return page.failed(error, heading: "The photos were not changed")
        }
    }

    private static let noListing = ScreenError(kind: .notFound, message: "You have no listing with that id.")
}
