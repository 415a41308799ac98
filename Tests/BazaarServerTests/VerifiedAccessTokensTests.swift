import Foundation
import Testing

@testable import BazaarServer

/// The memory of verified access tokens stays bounded.
@Suite("VerifiedAccessTokens")
struct VerifiedAccessTokensTests {
    static func claims(expiring: Date) -> VerifiedAccessTokens.Claims {
        VerifiedAccessTokens.Claims(userId: "u", sessionId: "s", expiresAt: expiring)
    }

    @Test("when full, expired tokens are dropped and unexpired ones kept")
    func fullDropsExpired() {
        let tokens = VerifiedAccessTokens()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<VerifiedAccessTokens.capacity {
            let expiry = index.isMultiple(of: 2) ? now - 1 : now + 60
            tokens.remember(Self.claims(expiring: expiry), of: "t\(index)", now: now - 120)
        }
        #expect(tokens.claims(of: "t0") != nil)
        tokens.remember(Self.claims(expiring: now + 60), of: "new", now: now)
        #expect(tokens.claims(of: "t0") == nil, "expired: dropped")
        #expect(tokens.claims(of: "t1") != nil, "unexpired: kept")
        #expect(tokens.claims(of: "new") != nil)
    }

    @Test("when full of unexpired tokens, all are dropped rather than growing")
    func fullOfUnexpiredStartsAgain() {
        let tokens = VerifiedAccessTokens()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<VerifiedAccessTokens.capacity {
            tokens.remember(Self.claims(expiring: now + 60), of: "t\(index)", now: now)
        }
        tokens.remember(Self.claims(expiring: now + 60), of: "new", now: now)
        #expect(tokens.claims(of: "t1") == nil)
        #expect(tokens.claims(of: "new") != nil)
    }
}
