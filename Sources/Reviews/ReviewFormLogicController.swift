import BazaarAPI
import Dependencies
import Foundation
import Networking
import Session

/// Reviewing the other party of a sale: reads the draft (a rating of 1 to 5, words within the
/// limit), shows each broken rule beside its field, and writes the review. Whether the person may
/// (a party of the sale, once) is the server's rule; its refusal is shown as the failure.
public actor ReviewFormLogicController: ReviewFormLogic {
    private let session: UserSession?
    private let productID: String
    private let broadcast = StateBroadcast<ScreenState<ReviewFormContent>>(.presenting(ReviewFormContent()))

    /// Makes the form for the sale of the product with `productID`, as `session`'s user.
    public init(session: UserSession?, productID: String) {
        self.session = session
        self.productID = productID
    }

    /// The form's states from now on (an empty form first).
    public func states() -> AsyncStream<ScreenState<ReviewFormContent>> { broadcast.subscribe(keeping: self) }

    /// Writes the review, or shows the form again with the errors beside their fields.
    @discardableResult
    public func send(_ action: ReviewFormAction) async -> ScreenState<ReviewFormContent> {
        switch action {
        case .submit(let draft): broadcast.publish(await submit(draft))
        }
    }

    private func submit(_ draft: ReviewDraft) async -> ScreenState<ReviewFormContent> {
        guard let session else {
            return .failed(ScreenError(kind: .signedOut, message: "Reviewing needs an account."))
        }
        var errors: [ReviewField: String] = [:]
        let rating = Int(draft.rating.trimmingCharacters(in: .whitespaces))
        if rating.map({ !InputRules.rating.contains($0) }) ?? true {
            errors[.rating] = "Give a rating from 1 to 5 stars."
        }
        let text = draft.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !InputRules.fits(text, InputRules.reviewText) {
            errors[.text] = "Keep it to \(InputRules.reviewText.upperBound) characters."
        }
        guard errors.isEmpty, let rating else {
            return .presenting(ReviewFormContent(draft: draft, fieldErrors: errors))
        }
        do throws(NetworkError) {
            let review = try await session.network.request(
                BazaarEndpoints.reviewProduct(id: productID, CreateReviewRequest(rating: rating, text: text)))
            return .presenting(ReviewFormContent(draft: draft, written: review))
        } catch {
            return .failed(ScreenError(error))
        }
    }
}
