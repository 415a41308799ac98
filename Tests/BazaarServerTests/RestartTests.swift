import BazaarAPI
import BazaarServer
import BazaarServerRuntime
import Foundation
import NIOHTTP1
import TestSupport
import Testing

@Suite("Durability across restarts")
struct RestartTests {
    @Test func everythingAnswered2xxSurvivesKill9AndTheIdempotencyKeyStillAnswersTheSameMessage() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("bazaar.sqlite").path

        let first = try BazaarProcess(sqlitePath: database)
        let client = BazaarTestClient(baseURL: first.baseURL)
        let ada = try await client.register("ada", password: "ada-password")
        let bob = try await client.register("bob")
        let bike = try await client.createProduct("Bike", token: ada.tokens.accessToken)
        let conversation = try await client.startConversation(
            with: ada.user.id, productId: bike.id, token: bob.tokens.accessToken)
        let sent = try await client.sendMessage(
            "still there?", in: conversation.id, token: bob.tokens.accessToken, key: "restart-key")
        expectStatus(sent, 201)
        let message = try sent.decode(Message.self)
        first.kill9()

        let second = try BazaarProcess(sqlitePath: database)
        defer { second.terminate() }
        let again = BazaarTestClient(baseURL: second.baseURL)
        // Tokens signed before the crash still verify: the signing key was stored beside the database.
        expectStatus(try await again.get(APIRoutes.me.template, token: ada.tokens.accessToken), 200)
        let login = try await again.post(
            APIRoutes.login.template, LoginRequest(username: "ada", password: "ada-password"))
        expectStatus(login, 200)
        #expect(try await again.get(APIRoutes.product.path(bike.id)).decode(Product.self) == bike)
        let conversations = try await again.get(APIRoutes.conversations.template, token: ada.tokens.accessToken).decode(
            Page<Conversation>.self)
        #expect(conversations.items.map(\.id) == [conversation.id])
        #expect(conversations.items.first?.lastMessage == message)
        #expect(conversations.items.first?.unreadCount == 1)
        let replay = try await again.sendMessage(
            "still there?", in: conversation.id, token: bob.tokens.accessToken, key: "restart-key")
        expectStatus(replay, 201)
        #expect(try replay.decode(Message.self) == message)
        #expect(replay.header(APIHeaders.idempotentReplayed) == "true")
        let messages = try await again.get(APIRoutes.messages.path(conversation.id), token: ada.tokens.accessToken)
            .decode(Page<Message>.self)
        #expect(messages.items == [message])
        let notifications = try await again.get(APIRoutes.notifications.template, token: ada.tokens.accessToken)
            .decode(Page<BazaarAPI.Notification>.self)
        #expect(notifications.items.map(\.messageId) == [message.id])
        // Refresh tokens survive too, and reuse detection still works after the restart.
        let refreshed = try await again.post(
            APIRoutes.refresh.template, RefreshRequest(refreshToken: ada.tokens.refreshToken))
        expectStatus(refreshed, 200)
    }

    @Test func theGeneratedSigningKeyIsStoredBesideTheDatabaseReadableOnlyByItsOwner() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = BazaarTestHarness.configuration(directory: directory)
        try await BazaarTestHarness.withServer(configuration: configuration) { client in
            _ = try await client.register("ada")
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: configuration.signingKeyPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func sigtermLetsARequestInFlightFinishThenExits() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try BazaarProcess(sqlitePath: directory.appendingPathComponent("bazaar.sqlite").path)
        let client = BazaarTestClient(baseURL: process.baseURL)
        let ada = try await client.register("ada")
        let port = try #require(process.baseURL.port)
        let photo = pngBytes + Data(repeating: 9, count: 100_000)
        let connection = try RawHTTP.Connection(port: port, timeoutSeconds: 10)
        var head = "PUT \(APIRoutes.uploadPhoto.template) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        head +=
            "Authorization: Bearer \(ada.tokens.accessToken)\r\nContent-Type: image/png\r\nContent-Length: \(photo.count)\r\n\r\n"
        // Half the upload, then SIGTERM while the request is still arriving, then the rest.
        try connection.send(Data(head.utf8) + photo.prefix(photo.count / 2))
        // The upload's handler has begun: two requests in flight, counting the `/metrics` read.
        #expect(
            try await eventually(within: .seconds(10)) {
                try await client.metric(ServerMetrics.Name.requestsInFlight) == 2
            }, "the upload never reached its handler")
        process.signalTerminate()
        // The stop has begun once the listener refuses new connections (a probe that connects
        // is closed at once by its deinit).
        #expect(
            try await eventually(within: .seconds(10)) {
                (try? RawHTTP.Connection(port: port, timeoutSeconds: 1)) == nil
            },
            "the server kept accepting connections after SIGTERM")
        try connection.send(photo.suffix(from: photo.count / 2))
        let answer = connection.receiveAll()
        #expect(answer.text.hasPrefix("HTTP/1.1 200"), "\(answer.text.prefix(200))")
        #expect(answer.text.contains(#""photoURL":"/v1/users/"#))
        #expect(process.waitForExit() == 0)
    }

    @Test func sigtermStopsTheServerCleanly() throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try BazaarProcess(sqlitePath: directory.appendingPathComponent("bazaar.sqlite").path)
        #expect(process.terminate() == 0)
    }
}

@Suite("Health and metrics")
struct HealthMetricsTests {
    @Test func healthAnswersOk() async throws {
        try await BazaarTestHarness.withServer { client in
            let response = try await client.get(APIRoutes.health.template)
            expectStatus(response, 200)
            #expect(try response.decode(HealthStatus.self) == HealthStatus(status: "ok"))
        }
    }

    @Test func metricsCountRequestsByRouteAndStatusAndCountRefreshes() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            _ = try await client.get(APIRoutes.user.path(ada.user.id))
            _ = try await client.get(APIRoutes.user.path("missing"))
            let spend = RefreshRequest(refreshToken: ada.tokens.refreshToken)
            let rotated = try await client.post(APIRoutes.refresh.template, spend).decode(Tokens.self)
            _ = try await client.post(APIRoutes.refresh.template, spend)  // its answer lost: the same again
            _ = try await client.post(APIRoutes.refresh.template, RefreshRequest(refreshToken: rotated.refreshToken))
            _ = try await client.post(APIRoutes.refresh.template, spend)  // the successor is spent: reuse
            let metrics = try await client.get(APIRoutes.metrics.template)
            expectStatus(metrics, 200)
            #expect(metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
            let text = metrics.text
            #expect(
                text.contains(#"bazaar_http_requests_total{route="/v1/users/{id}",method="GET",status="200"} 1"#),
                "\(text)")
            #expect(text.contains(#"bazaar_http_requests_total{route="/v1/users/{id}",method="GET",status="404"} 1"#))
            #expect(
                text.contains(
                    #"bazaar_http_request_duration_seconds_count{route="/v1/auth/register",method="POST",status="201"} 1"#
                ))
            #expect(text.contains(#"bazaar_auth_refresh_total{outcome="rotated"} 2"#))
            #expect(text.contains(#"bazaar_auth_refresh_total{outcome="replayed"} 1"#))
            #expect(text.contains(#"bazaar_auth_refresh_total{outcome="reused"} 1"#))
            // One process makes every write to its file: its memories are always believed.
            #expect(try await client.metric(ServerMetrics.Name.memosBelieved) == 1)
            // Nothing else is being answered: the one request in flight is this read of /metrics.
            #expect(try await client.metric(ServerMetrics.Name.requestsInFlight) == 1)
            #expect(try await client.metric(ServerMetrics.Name.openConnections) ?? 0 >= 1)
        }
    }

    @Test func logsNeverContainPasswordsOrTokens() async throws {
        let capture = LogCapture()
        try await BazaarTestHarness.withServer(logger: capture.logger()) { client in
            let password = "secret-password-123"
            let ada = try await client.register("ada", password: password)
            let login = try await client.post(
                APIRoutes.login.template, LoginRequest(username: "ada", password: password))
            let tokens = try login.decode(AuthResponse.self).tokens
            let refreshed = try await client.post(
                APIRoutes.refresh.template, RefreshRequest(refreshToken: tokens.refreshToken)
            ).decode(Tokens.self)
            _ = try await client.post(APIRoutes.refresh.template, RefreshRequest(refreshToken: tokens.refreshToken))
            _ = try await client.get(APIRoutes.events.template + "?token=\(ada.tokens.accessToken)")
            _ = try await client.post(
                APIRoutes.login.template, LoginRequest(username: "ada", password: "wrong-\(password)"))
            let lines = capture.all
            // The capture works: the routes were logged.
            #expect(lines.contains { $0.contains("/v1/auth/login") && $0.contains("http.status=401") })
            #expect(lines.contains { $0.contains("/v1/events") })
            let secrets = [
                password, ada.tokens.accessToken, ada.tokens.refreshToken, tokens.accessToken, tokens.refreshToken,
                refreshed.refreshToken,
            ]
            for secret in secrets {
                #expect(!lines.contains { $0.contains(secret) }, "a secret reached the log")
            }
        }
    }
}

/// `/metrics` on a listener of its own (issue 32, hole 11), so the API's address need not expose it.
@Suite("Metrics on their own address")
struct MetricsAddressTests {
    @Test("with a metrics address, /metrics answers there and is not found beside the API")
    func metricsMoveToTheirOwnListener() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = BazaarTestHarness.configuration(directory: directory)
        configuration.metricsAddress = MetricsAddress(host: "127.0.0.1", port: 0)
        let server = try await BazaarServer.start(
            configuration: configuration, logger: TestServer.quietLogger(label: "metrics-address"))
        let client = BazaarTestClient(baseURL: server.baseURL)
        _ = try await client.register("ada")
        let metricsURL = try #require(server.metricsURL)
        #expect(metricsURL.port != server.port)
        let beside = try await client.get(APIRoutes.metrics.template)
        #expect(beside.status == 404, "\(beside.text)")
        let own = try await BazaarTestClient(
            baseURL: try #require(URL(string: "http://127.0.0.1:\(metricsURL.port ?? 0)"))
        )
        .get(APIRoutes.metrics.template)
        #expect(own.status == 200)
        #expect(own.text.contains(#"route="/v1/auth/register",method="POST",status="201""#), "\(own.text)")
        await server.stop()
    }
}
