import BazaarAPI
import Foundation

/// Errors storage reports to callers.
public enum StoreError: Error, Equatable {
    /// A uniqueness rule was broken (the associated text names it).
    case conflict(String)
    /// Stored data could not be read back as expected.
    case corrupt(String)
    /// The database cannot be reached now (it is down, restarting, or did not answer in time);
    /// the request may be tried again shortly. Answered 503 with `Retry-After`.
    case unavailable(String)
}

extension BazaarStore {
    /// Spends a refresh token with no reuse interval: any second spend revokes the session.
    public func rotateRefreshToken(hash: String, newHash: String, newExpiresAt: Date, now: Date) async throws
        -> RefreshOutcome
    {
        try await rotateRefreshToken(
            hash: hash, newHash: newHash, newExpiresAt: newExpiresAt, now: now, reuseInterval: .zero)
    }
}
