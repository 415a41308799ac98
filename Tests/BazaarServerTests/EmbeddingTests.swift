import BazaarAPI
import BazaarServer
import BazaarServerRuntime
import Foundation
import NIOHTTP1
import TestSupport
import Testing

@Suite("Starting the server in-process and as a program")
struct EmbeddingTests {
    @Test func startListensOnAFreePortServesTheAPIAndStopEndsIt() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = BazaarTestHarness.configuration(directory: directory)
        configuration.seedDemo = true
        let server = try await BazaarServer.start(
            configuration: configuration, logger: TestServer.quietLogger(label: "embedded"))
        #expect(server.port > 0)
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        let client = BazaarTestClient(baseURL: server.baseURL)
        // Demo data is there: its users sign in with the demo password.
        let login = try await client.post(
            APIRoutes.login.template, LoginRequest(username: "ada", password: "bazaar-demo"))
        expectStatus(login, 200)
        let tokens = try login.decode(AuthResponse.self).tokens
        let products = try await client.get(APIRoutes.products.template).decode(Page<Product>.self)
        #expect(products.items.count == 5)
        let conversations = try await client.get(APIRoutes.conversations.template, token: tokens.accessToken).decode(
            Page<Conversation>.self)
        #expect(conversations.items.first?.otherUser.username == "bob")
        // The refresh count can be read in-process as well as from /metrics.
        expectStatus(
            try await client.post(APIRoutes.refresh.template, RefreshRequest(refreshToken: tokens.refreshToken)), 200)
        #expect(server.metrics.render().contains(#"bazaar_auth_refresh_total{outcome="rotated"} 1"#))
        _ = try await client.post(APIRoutes.refresh.template, RefreshRequest(refreshToken: "unknown"))
        #expect(server.metrics.refreshCount() == 2)
        #expect(server.metrics.refreshCount(outcome: "rotated") == 1)
        #expect(server.metrics.refreshCount(outcome: "invalid") == 1)
        await server.stop()
        // The port is closed. (A raw socket, because AsyncHTTPClient retries refused connections
        // until its deadline.)
        await #expect(throws: RawHTTP.SocketError.self) {
            _ = try await RawHTTP.exchange(Data("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8), port: server.port)
        }
    }

    @Test("starting on a port another server holds fails with the reason, not a bare didNotStart")
    func startOnATakenPortSaysWhy() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await BazaarServer.start(
            configuration: BazaarTestHarness.configuration(directory: directory),
            logger: TestServer.quietLogger(label: "first"))
        let other = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: other) }
        var configuration = BazaarTestHarness.configuration(directory: other)
        configuration.port = first.port
        do {
            let second = try await BazaarServer.start(
                configuration: configuration, logger: TestServer.quietLogger(label: "second"))
            await second.stop()
            Issue.record("a second server started on port \(first.port)")
        } catch let error as RunningBazaarServer.StartError {
            #expect("\(error)".lowercased().contains("address already in use"), "\(error)")
        }
        await first.stop()
    }

    @Test("a connection that never sent a byte is closed at stop, and the stop does not wait for it")
    func stopClosesConnectionsThatSentNothing() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await BazaarServer.start(
            configuration: BazaarTestHarness.configuration(directory: directory),
            logger: TestServer.quietLogger(label: "idle"))
        // A client's spare pooled connection: open, accepted, silent, until the server closes it.
        let (opened, open) = AsyncStream.makeStream(of: Void.self)
        async let idle = offPool { () throws -> RawHTTP.Exchange in
            let connection = try RawHTTP.Connection(port: server.port, timeoutSeconds: 10)
            open.yield()
            return connection.receiveAll()
        }
        for await _ in opened { break }
        #expect(
            try await eventually(within: .seconds(10)) { server.metrics.openConnectionCount() == 1 },
            "the server never counted the connection")
        let started = ContinuousClock.now
        await server.stop()
        let took = ContinuousClock.now - started
        // Before the fix the stop lasted until the client gave up on its silent connection (10 s).
        #expect(took < .seconds(8), "the stop took \(took)")
        // Uncounted as it closes (a moment after the stop may return: the stop waits on the same close).
        #expect(
            try await eventually(within: .seconds(5)) { server.metrics.openConnectionCount() == 0 },
            "a closed connection is still counted")
        _ = try await idle
    }

    @Test(
        "an event socket whose client never answers the close is ended at stop, and the stop does not wait for it",
        .timeLimit(.minutes(1)))
    func stopEndsAnUnansweringEventSocket() async throws {
        // Before the fix the stop waited for good: swift-websocket sent its close frame, but the
        // socket's writer waited on events that never came, so the close was never completed.
        let (upgraded, took, tail) = try await stopWhileAClientHolds { port, token in
            let connection = try RawHTTP.Connection(port: port, timeoutSeconds: 30)
            try connection.send(BazaarTestHarness.eventSocketHandshake(token: token))
            // Read up to the `ready` event, then read nothing: the server's close frame goes unanswered.
            return (
                connection,
                connection.receive(until: { String(decoding: $0, as: UTF8.self).contains(#""ready""#) }).text
            )
        }
        #expect(upgraded.hasPrefix("HTTP/1.1 101"), "\(upgraded)")
        // The server closed it (the client would have waited 30 s), and the stop did not wait
        // for the client: bounded loosely, as a busy machine (the whole suite at once) is slow.
        #expect(tail.closedByServer)
        #expect(took < .seconds(20), "the stop took \(took)")
    }

    @Test("a connection that sent part of a request head is closed at stop, without waiting for the header timeout")
    func stopClosesAHalfSentHead() async throws {
        // Before the fix the stop lasted until the header timeout (30 s here) answered it 408.
        let (_, took, tail) = try await stopWhileAClientHolds { port, _ in
            let connection = try RawHTTP.Connection(port: port, timeoutSeconds: 40)
            try connection.send(Data("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
            return (connection, "")
        }
        // Closed by the stop with nothing said (the header timeout would have answered 408),
        // and well before that timeout: bounded loosely, as a busy machine is slow.
        #expect(tail.closedByServer && tail.response.isEmpty, "closed with nothing said: \(tail.text)")
        #expect(took < .seconds(20), "the stop took \(took)")
    }

    /// Starts a server, lets `open` connect a raw client (given the port and a signed-in user's
    /// token; it returns the connection and what it read), stops the server, and returns what the
    /// client read on opening, how long the stop took, and what the client read after it.
    private func stopWhileAClientHolds(
        _ open: @escaping @Sendable (Int, String) throws -> (RawHTTP.Connection, String)
    ) async throws -> (opening: String, took: Duration, tail: RawHTTP.Exchange) {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = BazaarTestHarness.configuration(directory: directory)
        configuration.connections.headerTimeout = .seconds(30)
        let server = try await BazaarServer.start(
            configuration: configuration, logger: TestServer.quietLogger(label: "stop"))
        let token = try await BazaarTestClient(baseURL: server.baseURL).register("ada").tokens.accessToken
        // The registration's pooled connection may still be open: the client's is one more.
        let connectionsBefore = server.metrics.openConnectionCount()
        let (opened, openedSignal) = AsyncStream.makeStream(of: Void.self)
        let stopped = Counter()
        async let client = offPool { [port = server.port] () throws -> (String, RawHTTP.Exchange) in
            defer { openedSignal.finish() }
            let (connection, opening) = try open(port, token)
            openedSignal.yield()
            while stopped.value == 0 { Thread.sleep(forTimeInterval: 0.01) }
            return (opening, connection.receiveAll())
        }
        for await _ in opened { break }
        #expect(
            try await eventually(within: .seconds(10)) { server.metrics.openConnectionCount() > connectionsBefore },
            "the server never counted the connection")
        let started = ContinuousClock.now
        await server.stop()
        let took = ContinuousClock.now - started
        stopped.increment()
        let (opening, tail) = try await client
        return (opening, took, tail)
    }

    @Test func seedingTwiceDoesNotDuplicateDemoData() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = BazaarTestHarness.configuration(directory: directory)
        configuration.seedDemo = true
        for _ in 0..<2 {
            let server = try await BazaarServer.start(
                configuration: configuration, logger: TestServer.quietLogger(label: "embedded"))
            let products = try await BazaarTestClient(baseURL: server.baseURL).get(APIRoutes.products.template).decode(
                Page<Product>.self)
            #expect(products.items.count == 5)
            await server.stop()
        }
    }

    @Test func theExecutableRejectsBadArgumentsWithAMessageAndNonZeroExit() throws {
        let process = try ChildProcess(
            executable: BazaarProcess.executablePath(), arguments: ["--port", "70000"], addingToEnvironment: [:],
            standardError: .pipe)
        let text = String(decoding: PipeReading.readToEnd(try #require(process.standardError)), as: UTF8.self)
        #expect(process.waitUntilExit() != 0)
        #expect(text.contains("--port must be 0-65535"), "\(text)")
    }
}
