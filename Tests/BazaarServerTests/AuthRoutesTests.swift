import BazaarAPI
import BazaarServer
import BazaarStorage
import Foundation
import NIOHTTP1
import TestSupport
import Testing

@Suite("Auth routes")
struct AuthRoutesTests {
    @Test func registerLoginRefreshThenReusedRefreshTokenRevokesTheSessionAndLogoutEndsAnother() async throws {
        try await BazaarTestHarness.withServer { client in
            let registered = try await client.register("ada", password: "correct horse")
            #expect(registered.user.username == "ada")
            #expect(registered.tokens.tokenType == "Bearer")

            let login = try await client.post(
                APIRoutes.login.template, LoginRequest(username: "ada", password: "correct horse"))
            expectStatus(login, 200)
            let signedIn = try login.decode(AuthResponse.self)
            #expect(signedIn.user.id == registered.user.id)

            // Refresh rotates: a new refresh token, and the access token works.
            let refreshed = try await client.post(
                APIRoutes.refresh.template, RefreshRequest(refreshToken: signedIn.tokens.refreshToken))
            expectStatus(refreshed, 200)
            let rotated = try refreshed.decode(Tokens.self)
            #expect(rotated.refreshToken != signedIn.tokens.refreshToken)
            expectStatus(try await client.get(APIRoutes.me.template, token: rotated.accessToken), 200)

            // The client refreshes again; then someone presents the first, spent token: reuse, 401,
            // and the whole session is revoked.
            let again = try await client.post(
                APIRoutes.refresh.template, RefreshRequest(refreshToken: rotated.refreshToken))
            let latest = try again.decode(Tokens.self)
            let reuse = try await client.post(
                APIRoutes.refresh.template, RefreshRequest(refreshToken: signedIn.tokens.refreshToken))
            expectError(reuse, 401, code: "refresh_token_reused")
            let afterReuse = try await client.post(
                APIRoutes.refresh.template, RefreshRequest(refreshToken: latest.refreshToken))
            expectError(afterReuse, 401, code: "invalid_refresh_token")
            expectError(
                try await client.get(APIRoutes.me.template, token: latest.accessToken), 401, code: "session_revoked")

            // The registration's own session is untouched; logout ends it.
            let registrationToken = registered.tokens.accessToken
            expectStatus(try await client.get(APIRoutes.me.template, token: registrationToken), 200)
            let logout = try await client.post(APIRoutes.logout.template, token: registrationToken)
            expectStatus(logout, 204)
            expectError(
                try await client.get(APIRoutes.me.template, token: registrationToken), 401, code: "session_revoked")
            let refreshAfterLogout = try await client.post(
                APIRoutes.refresh.template, RefreshRequest(refreshToken: registered.tokens.refreshToken))
            expectError(refreshAfterLogout, 401)
        }
    }

    /// Hole 8 of issue 32: a refresh whose answer is lost used to sign the user out, since the
    /// client's retry with the spent token counted as reuse.
    @Test(arguments: StorageKind.available)
    func aSpentRefreshTokenPresentedAgainWithinTheIntervalGetsTheSameSuccessor(storage: StorageKind) async throws {
        let clock = TestClock()
        try await BazaarTestHarness.withServer(on: storage, clock: clock) { client in
            let ada = try await client.register("ada")
            let spend = RefreshRequest(refreshToken: ada.tokens.refreshToken)
            let first = try await client.post(APIRoutes.refresh.template, spend).decode(Tokens.self)
            clock.advance(by: .seconds(29))
            let retried = try await client.post(APIRoutes.refresh.template, spend)
            expectStatus(retried, 200)
            let again = try retried.decode(Tokens.self)
            #expect(again.refreshToken == first.refreshToken, "the same successor, not a third token")
            expectStatus(try await client.get(APIRoutes.me.template, token: again.accessToken), 200)
            // The successor works once, as any refresh token.
            expectStatus(
                try await client.post(APIRoutes.refresh.template, RefreshRequest(refreshToken: first.refreshToken)), 200
            )
        }
    }

    @Test(
        "after the reuse interval a spent refresh token is a reuse again, and revokes the session",
        arguments: StorageKind.available)
    func aSpentRefreshTokenAfterTheIntervalRevokes(storage: StorageKind) async throws {
        let clock = TestClock()
        try await BazaarTestHarness.withServer(on: storage, clock: clock) { client in
            let ada = try await client.register("ada")
            let spend = RefreshRequest(refreshToken: ada.tokens.refreshToken)
            let first = try await client.post(APIRoutes.refresh.template, spend).decode(Tokens.self)
            clock.advance(by: .seconds(31))
            expectError(try await client.post(APIRoutes.refresh.template, spend), 401, code: "refresh_token_reused")
            expectError(
                try await client.get(APIRoutes.me.template, token: first.accessToken), 401, code: "session_revoked")
        }
    }

    @Test func unknownRefreshTokenIsRejected() async throws {
        try await BazaarTestHarness.withServer { client in
            let response = try await client.post(
                APIRoutes.refresh.template, RefreshRequest(refreshToken: "not-a-token"))
            expectError(response, 401, code: "invalid_refresh_token")
        }
    }

    @Test func takenUsernameIs409() async throws {
        try await BazaarTestHarness.withServer { client in
            _ = try await client.register("ada")
            let again = try await client.post(
                APIRoutes.register.template,
                RegisterRequest(username: "ada", password: "password123", displayName: "Other"))
            expectError(again, 409, code: "username_taken")
        }
    }

    @Test(arguments: [
        RegisterRequest(username: "ab", password: "password123", displayName: "A"),
        RegisterRequest(username: "Ada", password: "password123", displayName: "A"),
        RegisterRequest(username: "ada!", password: "password123", displayName: "A"),
        RegisterRequest(username: String(repeating: "a", count: 33), password: "password123", displayName: "A"),
        RegisterRequest(username: "ada", password: "short", displayName: "A"),
        RegisterRequest(username: "ada", password: "password123", displayName: ""),
    ])
    func registrationBreakingAFieldRuleIs422(request: RegisterRequest) async throws {
        try await BazaarTestHarness.withServer { client in
            expectError(try await client.post(APIRoutes.register.template, request), 422, code: "invalid_field")
        }
    }

    @Test func unknownUserAndWrongPasswordGetTheSame401() async throws {
        try await BazaarTestHarness.withServer { client in
            _ = try await client.register("ada")
            let wrongPassword = try await client.post(
                APIRoutes.login.template, LoginRequest(username: "ada", password: "wrong-password"))
            let unknownUser = try await client.post(
                APIRoutes.login.template, LoginRequest(username: "nobody", password: "wrong-password"))
            expectError(wrongPassword, 401, code: "invalid_credentials")
            expectError(unknownUser, 401, code: "invalid_credentials")
            #expect(wrongPassword.body == unknownUser.body)
        }
    }

    /// The throttle counts an attempt before its password is checked; when it checked, awaited
    /// bcrypt, then counted, 40 wrong passwords at once all reached bcrypt and all got 401.
    @Test(arguments: StorageKind.available)
    func wrongPasswordsSentAtOnceAreCheckedNoMoreOftenThanTheThrottleAllows(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            _ = try await client.register("ada")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        try await client.post(
                            APIRoutes.login.template, LoginRequest(username: "ada", password: "wrong-password")
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let limit = LoginThrottle.Policy().maxFailuresPerAccountAndAddress
            #expect(statuses.filter { $0 == 401 }.count == limit, "statuses: \(statuses.sorted())")
            #expect(statuses.filter { $0 == 429 }.count == 40 - limit)
        }
    }

    /// A success takes its own count back, so signing in often from one address is never throttled.
    @Test(arguments: StorageKind.available)
    func successfulLoginsFromOneAddressDoNotUseUpItsAllowance(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            _ = try await client.register("ada")
            for _ in 0..<(LoginThrottle.Policy().maxFailuresPerAddress + 5) {
                expectStatus(
                    try await client.post(
                        APIRoutes.login.template, LoginRequest(username: "ada", password: "password123")), 200)
            }
        }
    }

    /// Behind a trusted proxy, failures from addresses of one IPv6 /64 count together.
    @Test func failuresFromAddressesOfOneIPv6Slash64CountTogether() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        var configuration = BazaarTestHarness.configuration(directory: directory)
        configuration.trustForwardedFor = true
        configuration.loginThrottle = .init(
            maxFailuresPerAccountAndAddress: 100, maxFailuresPerAddress: 4, window: .seconds(60))
        try await BazaarTestHarness.withServer(configuration: configuration) { client in
            for index in 1...4 {
                expectError(
                    try await client.post(
                        APIRoutes.login.template, LoginRequest(username: "user\(index)", password: "wrong-password"),
                        headers: [("X-Forwarded-For", "2001:db8:7:7::\(index)")]), 401)
            }
            let sameBlock = try await client.post(
                APIRoutes.login.template, LoginRequest(username: "user5", password: "wrong-password"),
                headers: [("X-Forwarded-For", "2001:db8:7:7:abcd::99")])
            expectError(sameBlock, 429, code: "too_many_attempts")
            let otherBlock = try await client.post(
                APIRoutes.login.template, LoginRequest(username: "user5", password: "wrong-password"),
                headers: [("X-Forwarded-For", "2001:db8:7:8::1")])
            expectError(otherBlock, 401)
        }
    }

    /// Behind a trusted proxy, an `X-Forwarded-For` entry that is not an address (3 KB of text a
    /// client wrote) is not made a throttle key: PostgreSQL could not index it, and answered 500.
    @Test(arguments: StorageKind.available)
    func aForwardedForEntryThatIsNotAnAddressIsIgnored(storage: StorageKind) async throws {
        try await storage.withConfiguration { base in
            var configuration = base
            configuration.trustForwardedFor = true
            try await BazaarTestHarness.withServer(configuration: configuration) { client in
                // Random text does not compress, so PostgreSQL cannot squeeze it into an index entry.
                let long = (0..<90).map { _ in UUID().uuidString }.joined()
                for forwarded in [long, "10.0.0.1, not-an-address", "::ffff:zz"] {
                    expectError(
                        try await client.post(
                            APIRoutes.login.template, LoginRequest(username: "ada", password: "wrong-password"),
                            headers: [("X-Forwarded-For", forwarded)]), 401)
                }
            }
        }
    }

    @Test func repeatedFailedLoginsForOneUsernameAre429WithRetryAfter() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        var configuration = BazaarTestHarness.configuration(directory: directory)
        configuration.loginThrottle = .init(
            maxFailuresPerAccountAndAddress: 3, maxFailuresPerAddress: 100, window: .seconds(60))
        try await BazaarTestHarness.withServer(configuration: configuration) { client in
            _ = try await client.register("ada")
            for _ in 0..<3 {
                expectError(
                    try await client.post(
                        APIRoutes.login.template, LoginRequest(username: "ada", password: "wrong-password")), 401)
            }
            // Even the right password is refused while throttled.
            let throttled = try await client.post(
                APIRoutes.login.template, LoginRequest(username: "ada", password: "password123"))
            expectError(throttled, 429, code: "too_many_attempts")
            let retryAfter = try #require(throttled.header("Retry-After").flatMap(Int.init))
            #expect((1...60).contains(retryAfter))
            // Another username from the same address is not affected by this username's count.
            _ = try await client.register("bob")
            expectStatus(
                try await client.post(APIRoutes.login.template, LoginRequest(username: "bob", password: "password123")),
                200)
        }
    }

    @Test func manyFailuresFromOneAddressAcrossUsernamesAre429() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        var configuration = BazaarTestHarness.configuration(directory: directory)
        configuration.loginThrottle = .init(
            maxFailuresPerAccountAndAddress: 100, maxFailuresPerAddress: 4, window: .seconds(60))
        try await BazaarTestHarness.withServer(configuration: configuration) { client in
            for index in 0..<4 {
                let response = try await client.post(
                    APIRoutes.login.template, LoginRequest(username: "user\(index)", password: "wrong-password"))
                expectError(response, 401)
            }
            let throttled = try await client.post(
                APIRoutes.login.template, LoginRequest(username: "someone", password: "wrong-password"))
            expectError(throttled, 429, code: "too_many_attempts")
            #expect(throttled.header("Retry-After") != nil)
        }
    }

    /// Hole 3 of issue 32: five failures from one address used to lock the account for everyone.
    @Test(arguments: StorageKind.available)
    func failuresFromOneAddressDoNotLockTheAccountForAnother(storage: StorageKind) async throws {
        try await storage.withConfiguration { base in
            var configuration = base
            configuration.trustForwardedFor = true
            try await BazaarTestHarness.withServer(configuration: configuration) { client in
                _ = try await client.register("ada")
                let attacker = [("X-Forwarded-For", "203.0.113.7")]
                for _ in 0..<LoginThrottle.Policy().maxFailuresPerAccountAndAddress {
                    expectError(
                        try await client.post(
                            APIRoutes.login.template, LoginRequest(username: "ada", password: "wrong-password"),
                            headers: attacker), 401)
                }
                expectError(
                    try await client.post(
                        APIRoutes.login.template, LoginRequest(username: "ada", password: "password123"),
                        headers: attacker), 429, code: "too_many_attempts")
                // Ada, at home, signs in at once.
                expectStatus(
                    try await client.post(
                        APIRoutes.login.template, LoginRequest(username: "ada", password: "password123"),
                        headers: [("X-Forwarded-For", "198.51.100.20")]), 200)
            }
        }
    }

    /// Many addresses against one account: past the account's ceiling every attempt waits its
    /// turn (one per slow interval), and the user still gets in once the interval has passed.
    @Test(arguments: StorageKind.available)
    func pastTheAccountCeilingAttemptsAreSlowedNotLocked(storage: StorageKind) async throws {
        let clock = TestClock()
        try await storage.withConfiguration(clock: clock) { base in
            var configuration = base
            configuration.trustForwardedFor = true
            configuration.loginThrottle = .init(
                maxFailuresPerAccount: 10, slowInterval: .seconds(5), window: .seconds(15 * 60))
            try await BazaarTestHarness.withServer(configuration: configuration) { client in
                _ = try await client.register("ada")
                for index in 1...10 {
                    expectError(
                        try await client.post(
                            APIRoutes.login.template, LoginRequest(username: "ada", password: "wrong-password"),
                            headers: [("X-Forwarded-For", "203.0.113.\(index)")]), 401)
                }
                let slowed = try await client.post(
                    APIRoutes.login.template, LoginRequest(username: "ada", password: "password123"),
                    headers: [("X-Forwarded-For", "198.51.100.20")])
                expectError(slowed, 429, code: "too_many_attempts")
                #expect(slowed.header("Retry-After").flatMap(Int.init).map { (1...5).contains($0) } == true)
                clock.advance(by: .seconds(5))
                // One guess per interval for the attacker, whoever asks first; then the user.
                expectError(
                    try await client.post(
                        APIRoutes.login.template, LoginRequest(username: "ada", password: "wrong-password"),
                        headers: [("X-Forwarded-For", "203.0.113.11")]), 401)
                expectError(
                    try await client.post(
                        APIRoutes.login.template, LoginRequest(username: "ada", password: "password123"),
                        headers: [("X-Forwarded-For", "198.51.100.20")]), 429)
                clock.advance(by: .seconds(5))
                expectStatus(
                    try await client.post(
                        APIRoutes.login.template, LoginRequest(username: "ada", password: "password123"),
                        headers: [("X-Forwarded-For", "198.51.100.20")]), 200)
            }
        }
    }

    @Test func throttleLiftsOnceTheWindowHasPassed() async throws {
        let clock = TestClock()
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        var configuration = BazaarTestHarness.configuration(directory: directory, clock: clock)
        configuration.loginThrottle = .init(
            maxFailuresPerAccountAndAddress: 2, maxFailuresPerAddress: 100, window: .seconds(60))
        try await BazaarTestHarness.withServer(configuration: configuration) { client in
            _ = try await client.register("ada")
            for _ in 0..<2 {
                _ = try await client.post(
                    APIRoutes.login.template, LoginRequest(username: "ada", password: "wrong-password"))
            }
            expectError(
                try await client.post(APIRoutes.login.template, LoginRequest(username: "ada", password: "password123")),
                429)
            clock.advance(by: .seconds(61))
            expectStatus(
                try await client.post(APIRoutes.login.template, LoginRequest(username: "ada", password: "password123")),
                200)
        }
    }
}

@Suite("Access tokens")
struct AccessTokenTests {
    @Test func missingTokenIs401WithBearerChallenge() async throws {
        try await BazaarTestHarness.withServer { client in
            let response = try await client.get(APIRoutes.me.template)
            expectError(response, 401, code: "unauthenticated")
            #expect(response.header("WWW-Authenticate") == "Bearer")
        }
    }

    @Test func theBearerSchemeIsReadInAnyCaseAndOtherSchemesAreRefused() async throws {
        try await BazaarTestHarness.withServer { client in
            let token = try await client.register("ada").tokens.accessToken
            for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
                expectStatus(
                    try await client.get(APIRoutes.me.template, headers: [("Authorization", "\(scheme) \(token)")]), 200
                )
            }
            expectStatus(
                try await client.get(APIRoutes.me.template, headers: [("Authorization", "Bearer   \(token)  ")]), 200)
            for value in ["Basic \(token)", "Bearers \(token)", "Bearer", "Bearer   ", token, "Bearer\t\(token)"] {
                expectError(
                    try await client.get(APIRoutes.me.template, headers: [("Authorization", value)]), 401,
                    code: "unauthenticated")
            }
        }
    }

    @Test func tamperedSignatureOrPayloadIsRejected() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bo = try await client.register("bob")
            let parts = ada.tokens.accessToken.split(separator: ".").map(String.init)
            try #require(parts.count == 3)
            // A flipped signature character.
            var signature = Array(parts[2])
            signature[0] = signature[0] == "A" ? "B" : "A"
            let badSignature = [parts[0], parts[1], String(signature)].joined(separator: ".")
            expectError(try await client.get(APIRoutes.me.template, token: badSignature), 401, code: "invalid_token")
            // Ada's signature on Bo's claims.
            let boParts = bo.tokens.accessToken.split(separator: ".").map(String.init)
            let swapped = [boParts[0], boParts[1], parts[2]].joined(separator: ".")
            expectError(try await client.get(APIRoutes.me.template, token: swapped), 401, code: "invalid_token")
            // Not a JWT at all.
            expectError(try await client.get(APIRoutes.me.template, token: "garbage"), 401, code: "invalid_token")
            // An unsigned ("alg": "none") token claiming to be Ada.
            let none = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString().replacingOccurrences(
                of: "=", with: "")
            expectError(
                try await client.get(APIRoutes.me.template, token: "\(none).\(parts[1])."), 401, code: "invalid_token")
        }
    }

    @Test func expiredAccessTokenIsRejectedButRefreshStillWorks() async throws {
        let clock = TestClock()
        try await BazaarTestHarness.withServer(clock: clock) { client in
            let ada = try await client.register("ada")
            expectStatus(try await client.get(APIRoutes.me.template, token: ada.tokens.accessToken), 200)
            clock.advance(by: .seconds(15 * 60 + 1))
            expectError(
                try await client.get(APIRoutes.me.template, token: ada.tokens.accessToken), 401, code: "token_expired")
            let refreshed = try await client.post(
                APIRoutes.refresh.template, RefreshRequest(refreshToken: ada.tokens.refreshToken))
            expectStatus(refreshed, 200)
            let tokens = try refreshed.decode(Tokens.self)
            #expect(tokens.expiresAt > clock.now())
            expectStatus(try await client.get(APIRoutes.me.template, token: tokens.accessToken), 200)
        }
    }

    @Test func expiredRefreshTokenIsRejected() async throws {
        let clock = TestClock()
        try await BazaarTestHarness.withServer(clock: clock) { client in
            let ada = try await client.register("ada")
            clock.advance(by: .seconds(30 * 24 * 3600 + 1))
            let response = try await client.post(
                APIRoutes.refresh.template, RefreshRequest(refreshToken: ada.tokens.refreshToken))
            expectError(response, 401, code: "invalid_refresh_token")
        }
    }
}
