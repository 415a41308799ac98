import BazaarAPI
import Dependencies
import Foundation

/// The conversations page and its live list.
struct ConversationListView: Sendable {
    struct Item: Sendable {
        var id: String
        var with: String
        var about: String?
        var lastMessage: String?
        var unread: Int?
    }

    var title = "Messages"
    var nav: NavigationView
    var conversations: [Item]

    init(content: ConversationListContent, nav: NavigationView) {
        self.nav = nav
        conversations = content.conversations.map { conversation in
            Item(
                id: conversation.id, with: conversation.otherUser.displayName, about: conversation.product?.title,
                lastMessage: conversation.lastMessage.map { String($0.body.prefix(80)) },
                unread: conversation.unreadCount > 0 ? conversation.unreadCount : nil)
        }
    }
}

/// One conversation's page and its live parts: the message list (each offer drawn as a card at
/// its first line, with the buttons the reader may press) and the form to make an offer.
struct ConversationView: Sendable {
    struct Line: Sendable {
        var who: String
        var body: String
        var mine: Bool
        var time: String
        var isoTime: String
        /// Whether it is an offer's line rather than something a person wrote.
        var offerLine: Bool
        /// The offer's card, on the first line of each offer.
        var card: OfferCardView?
        /// Where to report it: on what the other person wrote (not offer lines, nor what a
        /// moderator removed already).
        var reportURL: String?
        /// The photos it carries, shown inline (fetched through this app with the session).
        var photos: [PhotoItem]
        var hasPhotos: Bool
    }

    /// A chat photo: its `medium` size inline, linking to its `full` size, both served by this
    /// app with the signed-in session (the API serves them to the conversation's members only).
    struct PhotoItem: Sendable {
        var medium: String
        var full: String
        var label: String
        var width: Int
        var height: Int
    }

    struct Pending: Sendable {
        var body: String
        var state: String
        var stateClass: String
        /// "2 photos" while its photos wait in the outbox with it.
        var photoSummary: String?
    }

    var title: String
    var nav: NavigationView
    var id: String
    var heading: String
    var olderURL: String?
    var messages: [Line]
    var pending: [Pending]
    /// The form to make an offer, when the reader may make one.
    var makeOffer: MakeOfferView?
    /// The form to review the sale, once the product is sold and the reader has not reviewed it.
    var review: ReviewFormView?
    /// What the reader said of the sale, once they have.
    var reviewed: String?
    /// Whether either of the two blocked the other: nothing new can be written.
    var blocked: Bool
    /// The other person's id and name, for the block button.
    var otherUserID: String
    var otherName: String
    /// Whether the reader may block the other (someone who still has an account).
    var canBlock: Bool
    /// Whether the other person deleted their account.
    var otherDeleted: Bool
    /// Whether nothing new can be written here (a block, or an account gone).
    var closed: Bool

    /// The CSS class of a status: how this renderer styles it (the words are the state's).
    static func styleClass(_ status: MessageLine.Status) -> String {
        switch status {
        case .queued: "queued"
        case .sending: "sending"
        case .sent: "sent"
        case .failed: "failed"
        }
    }

    /// `olderPages` is how many pages before the newest are shown; the link asks for one more.
    /// `offers` (the same conversation's offers screen, when loaded) adds the cards and the form.
    /// `reviewing` (the other member's reviews, read when the product is sold) tells whether the
    /// reader reviewed the sale already.
    init(
        content: MessagesContent, offers: OffersContent? = nil, reviewing: ReviewsContent? = nil, me: String,
        olderPages: Int = 0, nav: NavigationView
    ) {
        let conversation = content.conversation
        title = "Chat with \(conversation.otherUser.displayName)"
        heading = title + (conversation.product.map { " about \($0.title)" } ?? "")
        self.nav = nav
        id = conversation.id
        olderURL = content.hasOlder ? "/conversations/\(conversation.id)?older=\(olderPages + 1)" : nil
        let lines = content.lines(viewer: me)
        var carded: Set<String> = []
        messages = lines.filter { $0.status == nil }.map { line in
            var card: OfferCardView?
            if let offerID = line.offerID, !carded.contains(offerID), let offer = offers?.card(offerID) {
                carded.insert(offerID)
                card = OfferCardView(offer, conversationID: conversation.id)
            }
            let reportable = !line.isMine && line.offerID == nil && !line.removed
            let photos = line.photos.enumerated().map { index, photo in
                let (width, height) = ProductCardView.fitted(photo, within: 320)
                let address = "/conversations/\(conversation.id)/photos/\(photo.id)"
                return PhotoItem(
                    medium: address + "?size=medium", full: address,
                    label: "Photo \(index + 1) from \(line.author)", width: width, height: height)
            }
            return Line(
                who: line.author, body: line.body, mine: line.isMine, time: WebFormats.time(line.time),
                isoTime: WebFormats.iso(line.time), offerLine: line.offerID != nil, card: card,
                reportURL: reportable ? "/report?type=message&id=\(line.id)" : nil, photos: photos,
                hasPhotos: !photos.isEmpty)
        }
        pending = lines.compactMap { line in
            line.status.map {
                Pending(
                    body: line.body, state: $0.text, stateClass: Self.styleClass($0), photoSummary: line.photoSummary)
            }
        }
        if let product = conversation.product, product.status == .sold, let reviewing {
            if let mine = reviewing.reviews.first(where: {
                $0.review.productId == product.id && $0.review.authorId == me
            }) {
                reviewed =
                    "You rated this sale \(mine.stars)" + (mine.review.text.isEmpty ? "." : ": “\(mine.review.text)”")
            } else {
                review = ReviewFormView(productID: product.id, conversation: conversation.id)
            }
        }
        blocked = conversation.blocked
        otherUserID = conversation.otherUser.id
        otherName = conversation.otherUser.displayName
        otherDeleted = conversation.otherUser.isDeleted
        canBlock = !otherDeleted
        closed = blocked || otherDeleted
        if let offers, offers.canOffer, !closed {
            makeOffer = MakeOfferView(
                action: "/conversations/\(conversation.id)/offers", asking: offers.askingPrice ?? "")
        }
    }
}

/// An offer drawn as a card: what was offered, where it stands, and a button per decision the
/// reader may take (each a plain form).
struct OfferCardView: Sendable {
    struct Button: Sendable {
        var action: String
        var title: String
    }

    var id: String
    var headline: String
    var standing: String
    /// The CSS class of the standing (`open`, `accepted`, `declined`, `withdrawn`).
    var status: String
    var decisions: [Button]

    init(_ card: OfferCard, conversationID: String) {
        id = card.id
        headline = card.headline
        standing = card.standing
        status = card.offer.status.rawValue
        decisions = card.decisions.map { decision in
            Button(
                action: "/conversations/\(conversationID)/offers/\(card.id)/\(decision.rawValue)",
                title: decision.title)
        }
    }
}

/// The form to make an offer.
struct MakeOfferView: Sendable {
    var action: String
    /// The asking price, as the label mentions it.
    var asking: String
}
