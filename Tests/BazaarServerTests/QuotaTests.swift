import BazaarAPI
import BazaarDomain
import BazaarServer
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// Runs `body` against a server with `quotas`, on a fresh SQLite file.
private func withServer<Result: Sendable>(_ quotas: QuotaPolicy, _ body: (BazaarTestClient) async throws -> Result)
    async throws -> Result
{
    try await BazaarTestHarness.withServer(configuring: { $0.quotas = quotas }, body)
}

/// Expects a `429 rate_limited` with a `Retry-After` of 1…60 seconds.
private func expectRateLimited(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == 429, "\(response.text)", sourceLocation: sourceLocation)
    #expect(response.errorCode == "rate_limited", sourceLocation: sourceLocation)
    let retryAfter = response.header("Retry-After").flatMap(Int.init)
    #expect(
        retryAfter.map { (1...60).contains($0) } == true, "Retry-After \(String(describing: retryAfter))",
        sourceLocation: sourceLocation)
}

@Suite("Write and read quotas")
struct QuotaTests {
    @Test("a user over the send quota gets 429 with Retry-After; another user still sends")
    func sendQuotaIsPerUser() async throws {
        try await withServer(QuotaPolicy(messagesPerMinute: 3)) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let conversation = try await client.startConversation(with: bob.user.id, token: ada.tokens.accessToken)
            for index in 0..<3 {
                expectStatus(
                    try await client.sendMessage("hi \(index)", in: conversation.id, token: ada.tokens.accessToken), 201
                )
            }
            expectRateLimited(
                try await client.sendMessage("one too many", in: conversation.id, token: ada.tokens.accessToken))
            expectStatus(
                try await client.sendMessage("hello ada", in: conversation.id, token: bob.tokens.accessToken), 201)
            // Nothing over the quota was stored.
            let page = try await client.get(APIRoutes.messages.path(conversation.id), token: ada.tokens.accessToken)
                .decode(Page<Message>.self)
            #expect(page.items.count == 4)
        }
    }

    @Test("replaying a sent message with its Idempotency-Key does not use up the quota")
    func replaysAreFree() async throws {
        try await withServer(QuotaPolicy(messagesPerMinute: 2)) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let conversation = try await client.startConversation(with: bob.user.id, token: ada.tokens.accessToken)
            let key = UUID().uuidString
            for _ in 0..<3 {
                expectStatus(
                    try await client.sendMessage("once", in: conversation.id, token: ada.tokens.accessToken, key: key),
                    201)
            }
            expectStatus(try await client.sendMessage("twice", in: conversation.id, token: ada.tokens.accessToken), 201)
            expectRateLimited(
                try await client.sendMessage("thrice", in: conversation.id, token: ada.tokens.accessToken))
        }
    }

    @Test("listing products, starting conversations and uploading photos each have their own quota")
    func otherWriteQuotas() async throws {
        try await withServer(QuotaPolicy(conversationsPerMinute: 1, productsPerMinute: 1, photosPerMinute: 1)) {
            client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let cyd = try await client.register("cyd")
            let token = ada.tokens.accessToken
            _ = try await client.createProduct("Lamp", token: token)
            let product = CreateProductRequest(title: "Chair", description: "Oak", priceCents: 100, currency: "EUR")
            expectRateLimited(try await client.post(APIRoutes.createProduct.template, product, token: token))
            _ = try await client.startConversation(with: bob.user.id, token: token)
            expectRateLimited(
                try await client.post(
                    APIRoutes.startConversation.template, StartConversationRequest(userId: cyd.user.id), token: token))
            let png = TestImages.png(width: 16, height: 16)
            expectStatus(
                try await client.send(
                    .PUT, APIRoutes.uploadPhoto.template, rawBody: png, contentType: "image/png", token: token), 200)
            expectRateLimited(
                try await client.send(
                    .PUT, APIRoutes.uploadPhoto.template, rawBody: png, contentType: "image/png", token: token))
        }
    }

    @Test("reads past the per-address quota are answered 429, but /health still answers")
    func readQuotaIsPerAddress() async throws {
        try await withServer(QuotaPolicy(readsPerMinutePerAddress: 5)) { client in
            for _ in 0..<5 { expectStatus(try await client.get(APIRoutes.products.template), 200) }
            expectRateLimited(try await client.get(APIRoutes.products.template))
            expectStatus(try await client.get(APIRoutes.health.template), 200)
        }
    }
}

/// Register and sign-in are open to anyone and each costs a bcrypt check: they are counted per
/// client address, and the checks themselves are bounded (issue 32, hole 4).
@Suite("Quotas and bounds on the unauthenticated routes")
struct UnauthenticatedRouteQuotaTests {
    @Test("an address over the register quota gets 429 with Retry-After; another address still registers")
    func registerQuotaIsPerAddress() async throws {
        try await BazaarTestHarness.withServer(configuring: {
            $0.trustForwardedFor = true
            $0.quotas = QuotaPolicy(registrationsPerMinutePerAddress: 3)
        }) { client in
            let flood = [("X-Forwarded-For", "203.0.113.9")]
            for index in 0..<3 {
                expectStatus(try await register(client, "user\(index)", headers: flood), 201)
            }
            expectRateLimited(try await register(client, "user3", headers: flood))
            expectStatus(try await register(client, "neighbour", headers: [("X-Forwarded-For", "198.51.100.2")]), 201)
        }
    }

    @Test("an address over the sign-in quota gets 429, successful sign-ins counted too")
    func signInQuotaCountsSuccesses() async throws {
        try await BazaarTestHarness.withServer(configuring: { $0.quotas = QuotaPolicy(signInsPerMinutePerAddress: 4) })
        {
            client in
            _ = try await client.register("ada")
            for _ in 0..<4 { _ = try await client.login("ada") }
            expectRateLimited(
                try await client.post(
                    APIRoutes.login.template, LoginRequest(username: "ada", password: "password123")))
        }
    }

    @Test(
        "past the bound on password checks a register is answered 503 at once, and a sign-in from elsewhere still gets in"
    )
    func passwordChecksAreBounded() async throws {
        try await BazaarTestHarness.withServer(configuring: {
            $0.trustForwardedFor = true
            $0.quotas = .unlimited
            $0.bcryptCost = 12  // about a quarter of a second a check, so the flood overlaps
            $0.maxPasswordChecks = 4  // new accounts hold at most 2
        }) { client in
            _ = try await register(client, "ada", headers: [])
            async let login = client.post(
                APIRoutes.login.template, LoginRequest(username: "ada", password: "password123"),
                headers: [("X-Forwarded-For", "198.51.100.2")])
            let statuses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        try await register(
                            client, "flood\(index)", headers: [("X-Forwarded-For", "203.0.113.\(index)")])
                    }
                }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            let busy = statuses.filter { $0.status == 503 }
            #expect(!busy.isEmpty && statuses.contains { $0.status == 201 }, "\(statuses.map(\.status))")
            #expect(statuses.allSatisfy { [201, 503].contains($0.status) }, "\(statuses.map(\.status))")
            for response in busy {
                #expect(response.errorCode == "service_unavailable")
                #expect(response.header("Retry-After") == "1")
            }
            expectStatus(try await login, 200)
        }
    }

    private func register(_ client: BazaarTestClient, _ username: String, headers: [(String, String)])
        async throws -> TestResponse
    {
        try await client.post(
            APIRoutes.register.template,
            RegisterRequest(username: username, password: "password123", displayName: username.capitalized),
            headers: headers)
    }
}

/// Every write is under a quota (issue 32, hole 9): the small edits per user, refreshes per address.
@Suite("Quotas on the small writes")
struct EditQuotaTests {
    @Test(
        "profile edits, photo order, marking read: one edit quota per user; over it 429, and another user still edits")
    func editsShareOneQuota() async throws {
        try await BazaarTestHarness.withServer(configuring: { $0.quotas = QuotaPolicy(editsPerMinute: 3) }) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let conversation = try await client.startConversation(with: bob.user.id, token: ada.tokens.accessToken)
            let sent = try await client.sendMessage("hi", in: conversation.id, token: bob.tokens.accessToken)
                .decode(Message.self)
            expectStatus(
                try await client.send(
                    .PATCH, APIRoutes.updateMe.template, json: UpdateProfileRequest(bio: "one"),
                    token: ada.tokens.accessToken), 200)
            expectStatus(
                try await client.post(
                    APIRoutes.markRead.path(conversation.id), MarkReadRequest(upTo: sent.id),
                    token: ada.tokens.accessToken), 204)
            expectStatus(
                try await client.post(
                    APIRoutes.markNotificationsRead.template, MarkNotificationsReadRequest(all: true),
                    token: ada.tokens.accessToken), 204)
            expectRateLimited(
                try await client.send(
                    .PATCH, APIRoutes.updateMe.template, json: UpdateProfileRequest(bio: "four"),
                    token: ada.tokens.accessToken))
            expectStatus(
                try await client.send(
                    .PATCH, APIRoutes.updateMe.template, json: UpdateProfileRequest(bio: "bob's"),
                    token: bob.tokens.accessToken), 200)
        }
    }

    @Test("refreshes are counted per address: over the quota 429 with Retry-After")
    func refreshQuotaIsPerAddress() async throws {
        try await BazaarTestHarness.withServer(configuring: { $0.quotas = QuotaPolicy(refreshesPerMinutePerAddress: 2) }
        ) {
            client in
            var token = try await client.register("ada").tokens.refreshToken
            for _ in 0..<2 {
                token = try await client.post(APIRoutes.refresh.template, RefreshRequest(refreshToken: token))
                    .decode(Tokens.self).refreshToken
            }
            expectRateLimited(try await client.post(APIRoutes.refresh.template, RefreshRequest(refreshToken: token)))
        }
    }
}

@Suite("Quotas on reports and exports")
struct TrustQuotaTests {
    @Test(
        "reports and account exports each have a quota per user: over it 429 with Retry-After; a repeat of an open report costs none"
    )
    func reportsAndExportsAreCounted() async throws {
        try await BazaarTestHarness.withServer(configuring: {
            $0.quotas = QuotaPolicy(reportsPerMinute: 2, exportsPerMinute: 1)
        }) { client in
            let ada = try await client.register("ada")
            let token = ada.tokens.accessToken
            var targets: [User] = []
            for name in ["bob", "cyd", "dee"] { targets.append(try await client.register(name).user) }
            func report(_ user: User) async throws -> TestResponse {
                try await client.post(
                    APIRoutes.createReport.template,
                    CreateReportRequest(subjectType: .user, subjectId: user.id, reason: .spam), token: token)
            }
            expectStatus(try await report(targets[0]), 201)
            expectStatus(try await report(targets[0]), 200)  // the open one again: no new report, no charge
            expectStatus(try await report(targets[1]), 201)
            expectRateLimited(try await report(targets[2]))
            expectStatus(try await client.get(APIRoutes.exportAccount.template, token: token), 200)
            expectRateLimited(try await client.get(APIRoutes.exportAccount.template, token: token))
        }
    }
}
