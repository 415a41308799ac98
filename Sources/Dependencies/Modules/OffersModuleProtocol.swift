import BazaarAPI

/// A decision one member of a conversation may take on an open offer.
public enum OfferDecision: String, Sendable, Equatable, Hashable, CaseIterable {
    /// The seller takes the offer: the product is reserved for the buyer.
    case accept
    /// The seller says no.
    case decline
    /// The buyer takes the offer back.
    case withdraw

    /// The button's words: "Accept", "Decline", "Withdraw".
    public var title: String {
        switch self {
        case .accept: "Accept"
        case .decline: "Decline"
        case .withdraw: "Withdraw"
        }
    }
}

/// One offer as one member of the conversation sees it: who made it, where it stands, and which
/// decisions are theirs to take. Both renderers draw these cards; neither decides what they say or
/// which buttons they carry.
public struct OfferCard: Sendable, Equatable, Identifiable {
    /// The offer.
    public var offer: Offer
    /// Whether the viewer made it (they are the buyer).
    public var isMine: Bool
    /// "You offered 120.00 EUR" or "Bea offered 120.00 EUR".
    public var headline: String
    /// Where it stands, in words: "waiting for the seller", "accepted: reserved for you", ….
    public var standing: String
    /// The decisions the viewer may take now: accept and decline for the seller, withdraw for the
    /// buyer, none once it is decided.
    public var decisions: [OfferDecision]

    /// The offer's id.
    public var id: String { offer.id }

    /// The card of `offer` in `conversation`, as `viewerID` sees it.
    public init(_ offer: Offer, in conversation: Conversation, viewer viewerID: String) {
        self.offer = offer
        isMine = offer.buyerId == viewerID
        let buyer = isMine ? "You" : conversation.otherUser.displayName
        headline = "\(buyer) offered \(offer.amountText)"
        switch offer.status {
        case .open:
            standing = isMine ? "waiting for the seller" : "waiting for your answer"
            decisions = isMine ? [.withdraw] : [.accept, .decline]
        case .accepted:
            standing = isMine ? "accepted: reserved for you" : "accepted: reserved for \(buyer)"
            decisions = []
        case .declined:
            standing = "declined"
            decisions = []
        case .withdrawn:
            standing = "withdrawn"
            decisions = []
        }
    }
}

/// What the offers of one conversation look like to one of its members.
public struct OffersContent: Sendable, Equatable {
    /// The conversation (its product as it is now: an accept reserves it).
    public var conversation: Conversation
    /// The signed-in member.
    public var viewerID: String
    /// The conversation's offers, newest first.
    public var offers: [Offer]
    /// Whether a ``OffersAction/loadMore`` can add older offers.
    public var hasMore: Bool

    /// Makes content.
    public init(conversation: Conversation, viewerID: String, offers: [Offer], hasMore: Bool) {
        self.conversation = conversation
        self.viewerID = viewerID
        self.offers = offers
        self.hasMore = hasMore
    }

    /// The cards, newest first.
    public var cards: [OfferCard] { offers.map { OfferCard($0, in: conversation, viewer: viewerID) } }

    /// The card of the offer with this id, when loaded.
    public func card(_ offerID: String) -> OfferCard? {
        offers.first { $0.id == offerID }.map { OfferCard($0, in: conversation, viewer: viewerID) }
    }

    /// The offer a `decision` is about when the person names none, or names one by a prefix of its
    /// id: the newest offer (matching `idPrefix`, when given) on which the viewer may take that
    /// decision now; `nil` when there is none.
    public func target(of decision: OfferDecision, idPrefix: String? = nil) -> OfferCard? {
        cards.first { card in
            card.decisions.contains(decision) && (idPrefix.map { card.id.hasPrefix($0) } ?? true)
        }
    }

    /// Whether the viewer may make an offer: they are not the seller, and the product is there and
    /// available.
    public var canOffer: Bool {
        guard let product = conversation.product else { return false }
        return product.sellerId != viewerID && product.status == .available
    }

    /// The product's price, as the offer form suggests it.
    public var askingPrice: String? {
        conversation.product.map { Price.text(cents: $0.priceCents, currency: $0.currency) }
    }
}

/// What a member can do with the offers of a conversation.
public enum OffersAction: Sendable, Equatable {
    /// Loads the conversation and its newest offers.
    case load
    /// Adds older offers.
    case loadMore
    /// Offers `amountCents` (in the product's currency) for the product; an earlier open offer of
    /// the viewer's is replaced by it.
    case make(amountCents: Int)
    /// Takes `decision` on the offer with id `offerID`.
    case decide(OfferDecision, offerID: String)
}

/// The offers screen's logic: actions in, states out. While watched, an offer made or decided by
/// the other member (its `offer.updated` event) is in the states at once.
public protocol OffersLogic: LogicController where Action == OffersAction, State == ScreenState<OffersContent> {}

/// The offers of one conversation as a module hands them out.
public typealias OffersScreen = Screen<any OffersLogic>

/// The offers feature's public face; the app resolves it from ``Dependencies``.
public protocol OffersModuleProtocol: Sendable {
    /// A new screen of the offers in the conversation with this id.
    func offersScreen(conversationID: String) -> OffersScreen
}
