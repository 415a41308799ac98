import BazaarAPI
import BazaarStorage

/// What a block prevents, decided here and nowhere else: while either of two users has blocked
/// the other, neither opens a conversation with the other, nor sends a message or an offer (nor
/// accepts one) in a shared one (403 `blocked`), and nothing one does reaches the other live or
/// as a notification. What was said before stays readable to both.
///
/// Blocks are rows of the shared database, read at each decision, so a block made on one replica
/// holds on every other at once.
struct BlockRule: Sendable {
    let store: any BazaarStore

    /// Whether either of the two blocked the other.
    func refusal(_ userId: String, _ otherUserId: String) async throws -> Bool {
        try await !store.blockedPeers(of: userId, among: [otherUserId]).isEmpty
    }

    /// Throws ``DomainError/blocked`` when either of the two blocked the other.
    func refuse(_ userId: String, _ otherUserId: String) async throws {
        if try await refusal(userId, otherUserId) { throw DomainError.blocked }
    }

    /// `plan` with nothing told to anyone who blocked `actor` or whom `actor` blocked: one read,
    /// and only when the plan tells someone other than the actor.
    func shielding(_ plan: WritePlan, actor: String) async throws -> WritePlan {
        let others = plan.recipients.subtracting([actor])
        guard !others.isEmpty else { return plan }
        return plan.withholding(from: try await store.blockedPeers(of: actor, among: others.sorted()))
    }
}
