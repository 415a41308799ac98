import BazaarAPI
import Dependencies
import Foundation
import Hummingbird

extension WebApp {
    /// A seller's page (for anyone), and reviewing the other party of a sale.
    func addSellerRoutes(to router: Router<BasicRequestContext>) {
        router.get("/users/{id}") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context) { page in
                let reviews = try page.dependencies.reviewsModule.reviewsScreen(userID: id).logic
                let listings = try page.dependencies.productsModule.productListScreen(pageSize: 20).logic
                let trust = await reviews.send(.load)
                guard let content = trust.content else {
                    return page.failed(
                        trust.error
                            ?? ScreenError(kind: .other, message: "The page did not finish loading. Try again."),
                        heading: "No such person")
                }
                let shelf = await listings.send(.search(.everyListing(of: id)))
                return page.show(shelf, template: "seller", heading: "No such person") {
                    SellerView(
                        content: content, listings: $0.products, me: page.user, server: page.serverURL,
                        nav: page.nav())
                }
            }
        }
        router.post("/products/{id}/review") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.reviewsModule.reviewFormScreen(productID: id).logic
                    let state = await logic.send(
                        .submit(ReviewDraft(rating: page.form["rating"] ?? "", text: page.form["text"] ?? "")))
                    guard let content = state.content else {
                        return page.failed(
                            state.error ?? ScreenError(kind: .other, message: "The review was not saved."),
                            heading: "The review was not saved")
                    }
                    guard content.written != nil else {
                        let reasons = ReviewField.allCases.compactMap { content.fieldErrors[$0] }
                        return page.failed(
                            ScreenError(kind: .invalidInput, message: reasons.joined(separator: " ")),
                            heading: "The review was not saved")
                    }
                    // Back to the conversation it was written from, when the form said which.
                    let back = page.form["conversation"].flatMap { Self.isPlainID($0) ? $0 : nil }
                    return page.redirect(to: back.map { "/conversations/\($0)#review" } ?? "/products/\(id)")
                }
            }
        }
    }

    /// Whether `text` can be put in a path as it is (an id: letters, digits and dashes).
    static func isPlainID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
}
