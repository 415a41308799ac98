import BazaarAPI

/// The writes of one marketplace rule, applied by a store in one transaction: all of them or
/// none.
///
/// A service (in `BazaarDomain`) decides what a rule writes and builds the plan; each engine
/// implements each kind of ``StoredWrite`` once, in its dialect, and decides races in the
/// database: a ``StoredWrite/claim(_:)`` is a unique row, and a plan whose claim was taken first
/// writes nothing. Live events in a plan commit with it: on PostgreSQL they are rows of the same
/// transaction, notified at its commit (a transactional outbox); on SQLite, whose only reader
/// is this process, they are delivered once the transaction has committed.
public struct WritePlan: Sendable, Equatable {
    /// The writes, in the order they are applied.
    public private(set) var writes: [StoredWrite]

    /// A plan of these writes.
    public init(_ writes: [StoredWrite] = []) {
        self.writes = writes
    }

    /// Adds a write after the others.
    public mutating func append(_ write: StoredWrite) {
        writes.append(write)
    }

    /// Everyone the plan tells anything: the recipients of its live events and notifications.
    public var recipients: Set<String> {
        var users: Set<String> = []
        for write in writes {
            switch write {
            case .publish(_, let userIds): users.formUnion(userIds)
            case .notify(let userId, _): users.insert(userId)
            default: break
            }
        }
        return users
    }

    /// The plan with nothing told to `users`: they leave every live event's recipients, and their
    /// notifications are not written (what is stored for both, such as a timeline line, stays).
    public func withholding(from users: Set<String>) -> WritePlan {
        guard !users.isEmpty else { return self }
        return WritePlan(
            writes.compactMap { write in
                switch write {
                case .publish(let event, let userIds):
                    let kept = userIds.filter { !users.contains($0) }
                    return kept.isEmpty ? nil : .publish(event, to: kept)
                case .notify(let userId, _):
                    return users.contains(userId) ? nil : write
                default:
                    return write
                }
            })
    }

    /// The report the plan expects to be open, if it expects one.
    public var expectedOpenReport: String? {
        for case .expectReportOpen(let id) in writes { return id }
        return nil
    }

    /// The two users whose block refuses the plan, if it names them.
    public var refusedIfBlocked: (String, String)? {
        for case .refuseIfBlocked(let first, let second) in writes { return (first, second) }
        return nil
    }

    /// The plan without its block check: for a store that knows no block can involve the pair.
    public func withoutBlockCheck() -> WritePlan {
        WritePlan(
            writes.filter {
                if case .refuseIfBlocked = $0 { false } else { true }
            })
    }

    /// The chat photos the plan binds to its message, if it binds some.
    public var attachedPhotos: (ids: [String], messageId: String, uploaderId: String, conversationId: String)? {
        for case .attachPhotos(let ids, let messageId, let uploaderId, let conversationId) in writes {
            return (ids, messageId, uploaderId, conversationId)
        }
        return nil
    }

    /// The product version the plan expects, if it expects one.
    public var expectedProduct: (id: String, version: Int64)? {
        for case .expectProduct(let id, let version) in writes { return (id, version) }
        return nil
    }
}

/// One write of a ``WritePlan``: a primitive each engine implements once.
public enum StoredWrite: Sendable, Equatable {
    /// Writes nothing of the plan when either of the two users has blocked the other, or the
    /// second (the one written to) deleted their account, decided in the plan's own transaction
    /// (so a block committed first always wins): the store answers ``PlanOutcome/blocked``. It
    /// comes before the plan's claim and every other write (after an expectation), and never in a
    /// plan that takes a product down or suspends someone (those run as statements apart).
    case refuseIfBlocked(String, String)
    /// Claims an idempotency key for a result. When another plan claimed it first, nothing of
    /// this plan is written and the store answers ``PlanOutcome/claimTaken(resultId:)``.
    case claim(IdempotencyClaim)
    /// Adds a message to its conversation: the conversation's activity and last message move to
    /// it, and its sender has read it.
    case appendMessage(Message)
    /// Adds a notification for a user.
    case notify(userId: String, BazaarAPI.Notification)
    /// Announces a live event to the listed users' sockets, on every replica, when the plan
    /// commits (never if it does not).
    case publish(LiveEvent, to: [String])
    /// Requires the product to be at `version` still, checked under the product's row lock before
    /// anything is written: when another change moved it first, nothing of this plan is written
    /// and the store answers ``PlanOutcome/stale``, so the rule is decided again on what is there
    /// now. A plan expects at most one product, first.
    case expectProduct(id: String, version: Int64)
    /// Writes the fields of a product its seller changes (title, description, price, currency,
    /// status, buyer, updated time) and its version, as the record holds them. Its favourite count
    /// is not among them: favourites count themselves.
    case saveProduct(ProductRecord)
    /// Deletes a product, its photos and its saves; conversations about it stay, about no product.
    case deleteProduct(id: String)
    /// Moves a product's version on without changing what it shows: a deal's write (an offer
    /// made or decided) that must not apply on top of another one decided on the same version.
    case bumpProduct(id: String, version: Int64)
    /// Stores an offer as it now is: a new one, or the new status of one that exists.
    case saveOffer(Offer)
    /// Saves a product for a user, once (saving it again changes nothing); the product's
    /// favourite count goes up with a save that is new, in the same statement.
    case saveFavourite(userId: String, productId: String)
    /// Removes a user's save of a product, if there is one; the count goes down with it.
    case removeFavourite(userId: String, productId: String)
    /// Stores a review, and adds its rating to its subject's sum and count.
    case saveReview(Review)
    /// Stores a report as it now is: a new one (an open report of the same subject by the same
    /// reporter makes the store answer ``StoreError/conflict(_:)``), or its resolution.
    case saveReport(StoredReport)
    /// Records a moderator's action.
    case recordModeration(StoredModeration)
    /// Requires the report to be open still, checked under its row lock before anything is
    /// written: when another moderator resolved it first, nothing of this plan is written and the
    /// store answers ``PlanOutcome/stale``. A plan expects at most one report, first.
    case expectReportOpen(id: String)
    /// Replaces a message's body with `Message.removedBody` and marks it removed.
    case removeMessage(id: String)
    /// Suspends a user: sign-ins refused from now, their listings hidden from every list, search
    /// and product page, and every session revoked, announced to every replica with the plan.
    case suspendUser(id: String)
    /// Binds chat photos `ids` to message `messageId`: each must be `uploaderId`'s, uploaded to
    /// `conversationId` and not sent yet, or the plan writes nothing and is ``PlanOutcome/stale``.
    case attachPhotos(ids: [String], messageId: String, uploaderId: String, conversationId: String)
}

/// An idempotency key claimed for the result it produced.
public struct IdempotencyClaim: Sendable, Equatable {
    /// Whose key it is (keys of different users never collide).
    public var owner: String
    /// The key as the client sent it.
    public var key: String
    /// The id of what the first request with this key made.
    public var resultId: String

    /// A claim of `key` by `owner` for `resultId`.
    public init(owner: String, key: String, resultId: String) {
        self.owner = owner
        self.key = key
        self.resultId = resultId
    }
}

/// What applying a plan did.
public enum PlanOutcome: Sendable, Equatable {
    /// Every write is stored (and its events published).
    case applied
    /// The plan's claim was taken by an earlier request, for the result with this id; nothing
    /// was written.
    case claimTaken(resultId: String)
    /// The product the plan expected had changed (or gone), or a chat photo it binds was not
    /// the sender's to send (gone, sent, or another's), before the plan could be applied;
    /// nothing was written.
    case stale
    /// One of the two users the plan's ``StoredWrite/refuseIfBlocked(_:_:)`` names blocked the
    /// other; nothing was written.
    case blocked
}

/// The two members of a conversation.
public struct ConversationMembers: Sendable, Equatable {
    /// One member.
    public var first: String
    /// The other.
    public var second: String

    /// Members `first` and `second`.
    public init(_ first: String, _ second: String) {
        self.first = first
        self.second = second
    }

    /// The member who is not `userId`, or `nil` when `userId` is not a member.
    public func other(than userId: String) -> String? {
        if userId == first { return second }
        if userId == second { return first }
        return nil
    }
}
