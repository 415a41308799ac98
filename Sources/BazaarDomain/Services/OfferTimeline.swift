import BazaarAPI
import BazaarStorage
import Foundation

/// How an offer's moves enter a write plan, for every service that moves one: the offer in its
/// new state, its line in the conversation's timeline ("Declined the offer of 120.00 EUR"), the
/// notification of the other party, and the live events to both members.
///
/// ``OfferService`` decides offers; ``ListingService`` closes the open ones when a product stops
/// being available (reserved or sold by hand, or taken down), so a buyer never holds an offer
/// that can no longer be accepted and is told so in the conversation.
struct OfferTimeline: Sendable {
    let clock: DomainClock

    /// Adds `offer` in its new state with its timeline line ("`verb` 120.00 EUR" by `senderId`),
    /// the notification of `recipient` of type `type` (when given) and the live events to the buyer
    /// and `seller`.
    func record(
        _ offer: Offer, _ verb: String, by senderId: String, telling recipient: String?, _ type: String?,
        seller: String, to plan: inout WritePlan
    ) {
        plan.append(.saveOffer(offer))
        let members = [offer.buyerId, seller]
        let line = Message(
            id: clock.newId(), conversationId: offer.conversationId, senderId: senderId,
            body: "\(verb) \(offer.amountText)", createdAt: offer.updatedAt, kind: .offer, offerId: offer.id)
        if let recipient, let type {
            add(line, telling: recipient, type, members: members, to: &plan)
        } else {
            plan.append(.appendMessage(line))
            plan.append(.publish(.messageCreated(line), to: members))
        }
        plan.append(.publish(.offerUpdated(offer), to: members))
    }

    /// Declines each of `offers` still open (but the one with id `kept`) as `seller`, at `now`.
    func decline(_ offers: [Offer], except kept: String? = nil, seller: String, at now: Date, to plan: inout WritePlan)
    {
        for var offer in offers where offer.status == .open && offer.id != kept {
            offer.status = .declined
            offer.updatedAt = now
            record(
                offer, "Declined the offer of", by: seller, telling: offer.buyerId, NotificationType.offerDeclined,
                seller: seller, to: &plan)
        }
    }

    /// Adds a timeline line, the notification of `recipient` about it, and their live events.
    func add(_ line: Message, telling recipient: String, _ type: String, members: [String], to plan: inout WritePlan) {
        let notification = BazaarAPI.Notification(
            id: clock.newId(), type: type, read: false, createdAt: line.createdAt,
            conversationId: line.conversationId, messageId: line.id)
        plan.append(.appendMessage(line))
        plan.append(.notify(userId: recipient, notification))
        plan.append(.publish(.messageCreated(line), to: members))
        plan.append(.publish(.notificationCreated(notification), to: [recipient]))
    }
}
