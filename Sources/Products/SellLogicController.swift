import BazaarAPI
import Dependencies
import Networking
import Session

/// Listing a product for sale as the signed-in user: reads the draft, shows each broken rule
/// beside its field (its own checks first, then the server's), lists the product, then uploads the
/// draft's photos one at a time with their progress in the states.
public actor SellLogicController: SellLogic {
    private let session: UserSession?
    private let broadcast = StateBroadcast<ScreenState<SellContent>>(.presenting(SellContent()))

    /// Makes the logic; without a session, selling fails with a sign-in suggestion.
    public init(session: UserSession?) {
        self.session = session
    }

    /// The form's states from now on (an empty form first).
    public func states() -> AsyncStream<ScreenState<SellContent>> { broadcast.subscribe(keeping: self) }

    /// Lists the product, or shows the form again with the errors beside their fields.
    @discardableResult
    public func send(_ action: SellAction) async -> ScreenState<SellContent> {
        switch action {
        case .sell(let draft): broadcast.publish(await sell(draft))
        }
    }

    private func sell(_ draft: SellDraft) async -> ScreenState<SellContent> {
        guard let session else {
            return .failed(ScreenError(kind: .signedOut, message: "Selling needs an account."))
        }
        let (request, errors) = SellDraftReader.read(draft)
        guard let request, errors.isEmpty else { return .presenting(SellContent(draft: draft, fieldErrors: errors)) }
        do throws(NetworkError) {
            let product = try await session.network.request(BazaarEndpoints.createProduct(request))
            guard !draft.photos.isEmpty else { return .presenting(SellContent(draft: draft, listed: product)) }
            let outcome = await ProductPhotoUploader(network: session.network).add(draft.photos, to: product.id) {
                [broadcast] progress in
                broadcast.publish(.presenting(SellContent(draft: draft, listed: product, uploading: progress)))
            }
            return .presenting(
                SellContent(draft: draft, listed: outcome.product ?? product, photoProblems: outcome.problems))
        } catch {
            let screenError = ScreenError(error)
            if screenError.kind == .invalidInput, let field = SellDraftReader.field(named: screenError.message) {
                return .presenting(SellContent(draft: draft, fieldErrors: [field: screenError.message]))
            }
            return .failed(screenError)
        }
    }
}
