import BazaarAPI
import Dependencies
import Networking
import Session

/// The seller's own listing: its fields to edit (read like the sell form, each broken rule beside
/// its field), its status to change for one of the people who talked with the seller about it, and
/// taking it down. Who may do any of it is the server's rule: to anyone but the seller the product
/// answers 404, which this screen shows as not found.
public actor ListingLogicController: ListingLogic {
    private let session: UserSession?
    private let publicNetwork: NonAuthenticatedNetworkController
    private let productID: String
    /// How many pages of the seller's conversations are read to find the people who can buy it.
    private let conversationPages: Int
    private let broadcast = StateBroadcast<ScreenState<ListingContent>>(.loading)
    private var content: ListingContent?

    /// Makes the logic for the product with `productID`, as `session`'s user; the product is read
    /// on `publicNetwork` (as anyone reads it).
    public init(
        session: UserSession?, publicNetwork: NonAuthenticatedNetworkController, productID: String,
        conversationPages: Int = 5
    ) {
        self.session = session
        self.publicNetwork = publicNetwork
        self.productID = productID
        self.conversationPages = conversationPages
    }

    /// The screen's states from now on.
    public func states() -> AsyncStream<ScreenState<ListingContent>> { broadcast.subscribe(keeping: self) }

    /// Performs `action` and publishes the state it leads to.
    @discardableResult
    public func send(_ action: ListingAction) async -> ScreenState<ListingContent> {
        guard let session else {
            return broadcast.publish(.failed(ScreenError(kind: .signedOut, message: "Selling needs an account.")))
        }
        let network = session.network
        switch action {
        case .load:
            return broadcast.publish(await load(network))
        case .edit(let draft):
            let (request, errors) = SellDraftReader.read(draft)
            guard let request else { return broadcast.publish(showing(draft, errors)) }
            let update = UpdateProductRequest(
                title: request.title, description: request.description, priceCents: request.priceCents,
                currency: request.currency)
            do throws(NetworkError) {
                let product = try await network.request(BazaarEndpoints.updateProduct(id: productID, update))
                return broadcast.publish(await present(product, network))
            } catch {
                let screenError = ScreenError(error)
                if screenError.kind == .invalidInput, let field = SellDraftReader.field(named: screenError.message) {
                    return broadcast.publish(showing(draft, [field: screenError.message]))
                }
                return broadcast.publish(.failed(screenError))
            }
        case .setStatus(let status, let buyerID):
            do throws(NetworkError) {
                let product = try await network.request(
                    BazaarEndpoints.changeProductStatus(
                        id: productID, ChangeProductStatusRequest(status: status, buyerId: buyerID)))
                return broadcast.publish(await present(product, network))
            } catch {
                return broadcast.publish(.failed(ScreenError(error)))
            }
        case .takeDown:
            if content == nil, case .failed(let error) = await load(network) {
                return broadcast.publish(.failed(error))
            }
            guard var removed = content else { return broadcast.publish(.loading) }
            do throws(NetworkError) {
                _ = try await network.request(BazaarEndpoints.deleteProduct(id: productID))
            } catch {
                return broadcast.publish(.failed(ScreenError(error)))
            }
            removed.isRemoved = true
            removed.buyers = []
            content = removed
            return broadcast.publish(.presenting(removed))
        case .addPhotos(let photos):
            return broadcast.publish(await add(photos, network))
        case .removePhoto(let photoID):
            return broadcast.publish(
                await change(network) { () async throws(NetworkError) in
                    try await network.request(
                        BazaarEndpoints.removeProductPhoto(productId: productID, photoId: photoID))
                })
        case .movePhoto(let photoID, let position):
            if content == nil, case .failed(let error) = await load(network) {
                return broadcast.publish(.failed(error))
            }
            var order = content?.product.photos.map(\.id) ?? []
            guard let from = order.firstIndex(of: photoID) else {
                return broadcast.publish(
                    .failed(ScreenError(kind: .notFound, message: "The listing has no photo with that id.")))
            }
            order.remove(at: from)
            order.insert(photoID, at: min(max(0, position), order.count))
            return broadcast.publish(
                await change(network) { () async throws(NetworkError) in
                    try await network.request(
                        BazaarEndpoints.reorderProductPhotos(productId: productID, photoIds: order))
                })
        }
    }

    /// Uploads `photos` after the listing's own, publishing each upload's progress.
    private func add(_ photos: [PhotoToSend], _ network: AuthenticatedNetworkController) async
        -> ScreenState<ListingContent>
    {
        if content == nil, case .failed(let error) = await load(network) { return .failed(error) }
        guard var current = content else { return .loading }
        guard photos.count <= current.photoRoom else {
            current.photoProblems = [
                "A listing has at most \(Product.photoLimit) photos: this one has room for \(current.photoRoom) more."
            ]
            return .presenting(current)
        }
        let outcome = await ProductPhotoUploader(network: network).add(photos, to: productID) {
            [broadcast, current] progress in
            var uploading = current
            uploading.uploading = progress
            broadcast.publish(.presenting(uploading))
        }
        if let product = outcome.product { current.product = product }
        current.uploading = nil
        current.photoProblems = outcome.problems
        content = current
        return .presenting(current)
    }

    /// Applies a change to the listing's photos that answers the product.
    private func change(
        _ network: AuthenticatedNetworkController, _ make: () async throws(NetworkError) -> Product
    ) async -> ScreenState<ListingContent> {
        if content == nil, case .failed(let error) = await load(network) { return .failed(error) }
        guard var current = content else { return .loading }
        do throws(NetworkError) {
            current.product = try await make()
            current.photoProblems = []
            content = current
            return .presenting(current)
        } catch {
            return .failed(ScreenError(error))
        }
    }

    private func load(_ network: AuthenticatedNetworkController) async -> ScreenState<ListingContent> {
        do throws(NetworkError) {
            let product = try await publicNetwork.request(BazaarEndpoints.product(id: productID))
            // A product of someone else's is, to this screen, one that does not exist.
            guard product.sellerId == session?.userID else {
                return .failed(ScreenError(kind: .notFound, message: "You have no listing with that id."))
            }
            return await present(product, network)
        } catch {
            return .failed(ScreenError(error))
        }
    }

    /// The content for `product` as it is now, with the people who can buy it.
    private func present(_ product: Product, _ network: AuthenticatedNetworkController) async
        -> ScreenState<ListingContent>
    {
        do throws(NetworkError) {
            let listing = ListingContent(product: product, buyers: try await buyers(network))
            content = listing
            return .presenting(listing)
        } catch {
            return .failed(ScreenError(error))
        }
    }

    private func showing(_ draft: SellDraft, _ errors: [SellField: String]) -> ScreenState<ListingContent> {
        guard var current = content else {
            return .failed(ScreenError(kind: .invalidInput, message: errors.values.sorted().joined(separator: " ")))
        }
        current.draft = draft
        current.fieldErrors = errors
        return .presenting(current)
    }

    /// The other members of the seller's conversations about this product, newest activity first.
    private func buyers(_ network: AuthenticatedNetworkController) async throws(NetworkError) -> [User] {
        var found: [User] = []
        var cursor: String?
        for _ in 0..<conversationPages {
            let page = try await network.request(BazaarEndpoints.conversations(cursor: cursor, limit: 50))
            for conversation in page.items where conversation.product?.id == productID {
                if !found.contains(where: { $0.id == conversation.otherUser.id }) {
                    found.append(conversation.otherUser)
                }
            }
            guard let next = page.nextCursor else { break }
            cursor = next
        }
        return found
    }
}
