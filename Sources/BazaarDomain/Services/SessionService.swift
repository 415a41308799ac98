import BazaarAPI
import BazaarStorage
import Foundation

/// The sessions of one's own account: seeing them and ending them, written once for every
/// storage engine. Ending a session revokes it (its refresh token and every access token of it
/// stop working at once, and its sockets close on every replica); someone else's session, or
/// one ended already, is 404.
public struct SessionService: Sendable {
    let store: any BazaarStore
    let quotas: QuotaLimiter
    let clock: DomainClock

    /// A service over `store`, charging `quotas`, on `clock`.
    package init(store: any BazaarStore, quotas: QuotaLimiter, clock: DomainClock) {
        self.store = store
        self.quotas = quotas
        self.clock = clock
    }

    /// The sessions of `userId` still signed in, newest first; `current` is marked.
    public func sessions(of userId: String, current: String) async throws -> [AccountSession] {
        try await store.activeSessions(userId: userId).map { session in
            AccountSession(
                id: session.id, createdAt: session.createdAt, lastUsedAt: session.lastUsedAt,
                userAgent: session.userAgent, current: session.id == current)
        }
    }

    /// Ends the session `sessionId` of `userId`.
    public func end(_ sessionId: String, of userId: String) async throws {
        try quotas.charge(.edit, by: userId)
        guard let session = try await store.session(id: sessionId), session.userId == userId, session.revokedAt == nil
        else { throw DomainError.notFound("The session") }
        try await store.revokeSession(id: sessionId, now: clock.now())
    }

    /// Ends every session of `userId` but `current`.
    public func endOthers(of userId: String, keeping current: String) async throws {
        try quotas.charge(.edit, by: userId)
        try await store.revokeSessions(userId: userId, except: current, now: clock.now())
    }

    /// A `User-Agent` as a session keeps it: printable characters only, at most 200 of them, and
    /// `nil` when nothing is left.
    package static func userAgent(_ header: String?) -> String? {
        guard let header else { return nil }
        let printable = header.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        let kept = String(String.UnicodeScalarView(printable.prefix(InputRules.userAgent.upperBound)))
            .trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? nil : kept
    }
}
