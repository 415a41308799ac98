import BazaarAPI
import BazaarServer
import BazaarServerRuntime
import Chat
import Dependencies
import Foundation
import LiveEvents
import Networking
import Session
import TestSupport
import Testing

@Suite("Live messages over the WebSocket", .timeLimit(.minutes(2)))
struct LiveMessagesTests {
    @Test("a reply arrives on the open screen as it is sent")
    func replyArrivesLive() async throws {
        try await SessionFixture.with { fixture in
            let buyer = try await fixture.starter().register(
                username: "mia", password: "password123", displayName: "Mia")
            let seller = try await fixture.raw.register("max")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let connection = LiveEventsConnection(baseURL: fixture.baseURL, network: buyer.network)
            let outbox = try Outbox(
                path: folder.appendingPathComponent("outbox.sqlite").path,
                deliverer: BazaarOutboxDeliverer(network: buyer.network))
            let screen = ChatModule(session: buyer, outbox: outbox, connection: connection)
                .messagesScreen(user: seller.user, product: nil)
            let opened = await screen.logic.send(.load)
            let conversationID = try #require(opened.content?.conversation.id)
            let events = await connection.subscribe()
            let states = await screen.logic.states()
            // Sent only once the socket is up, so it can arrive live and not by a refresh.
            #expect(await within(.seconds(10), else: false) { await events.contains(.connected) }, "connected")
            _ = try await fixture.raw.sendMessage(
                "just listed it", in: conversationID, token: seller.tokens.accessToken)
            let live = await first(states, within: .seconds(10)) {
                $0.content?.messages.last?.body == "just listed it"
            }
            #expect(live != nil)
            await connection.stop()
        }
    }

    @Test("stop closes the socket on the server too")
    func stopClosesTheServersSocket() async throws {
        try await SessionFixture.with { fixture in
            let user = try await fixture.starter().register(
                username: "mia", password: "password123", displayName: "Mia")
            let connection = LiveEventsConnection(baseURL: fixture.baseURL, network: user.network)
            let events = await connection.subscribe()
            let connected = await within(.seconds(10), else: false) { await events.contains(.connected) }
            #expect(connected)
            #expect(try await fixture.waitForServerLiveSockets(1) == 1)
            await connection.stop()
            #expect(try await fixture.waitForServerLiveSockets(0) == 0, "the server still holds the socket")
        }
    }

    @Test("a handshake refused for a token the server no longer takes leads to a refresh, then a connection")
    func refusedTokenIsRefreshed() async throws {
        let serverClock = TestClock()
        try await SessionFixture.with(serverClock: serverClock) { fixture in
            // The client's clock stands still: it believes its access token is good.
            let buyer = try await fixture.starter(margin: .zero, clock: TestClock()).register(
                username: "quin", password: "password123", displayName: "Quin")
            serverClock.advance(by: .seconds(121))
            let connection = LiveEventsConnection(
                baseURL: fixture.baseURL, network: buyer.network,
                backoff: RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .milliseconds(500)))
            // Nothing else has talked to the server since its clock moved: the socket goes first.
            let events = await connection.subscribe()
            let connected = await within(.seconds(15), else: false) { await events.contains(.connected) }
            #expect(connected, "the refused handshake led to a refresh and then a connection")
            #expect(try await fixture.serverRefreshCount() == 1)
            await connection.stop()
        }
    }

    @Test(
        "a socket the server closes because its token expired reconnects with a refreshed token, and the screen gets what was sent meanwhile"
    )
    func expiredTokenReconnectsWithAFreshOne() async throws {
        let serverClock = TestClock()
        try await SessionFixture.with(serverClock: serverClock) { fixture in
            // The client's clock stands still: only the server's close tells it the token has expired.
            let buyer = try await fixture.starter(margin: .zero, clock: TestClock()).register(
                username: "mia", password: "password123", displayName: "Mia")
            _ = try await fixture.raw.register("max")
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            // A second before reconnecting, so the message below is sent while the socket is down.
            let connection = LiveEventsConnection(
                baseURL: fixture.baseURL, network: buyer.network,
                backoff: RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(2), jitter: false))
            let outbox = try Outbox(
                path: folder.appendingPathComponent("outbox.sqlite").path,
                deliverer: BazaarOutboxDeliverer(network: buyer.network))
            let seller = try await fixture.raw.login("max")
            let screen = ChatModule(session: buyer, outbox: outbox, connection: connection)
                .messagesScreen(user: seller.user, product: nil)
            let conversationID = try #require(await screen.logic.send(.load).content?.conversation.id)
            let states = await screen.logic.states()
            #expect(await first(states, within: .seconds(10)) { _ in true } != nil)
            let events = await connection.subscribe()
            #expect(await within(.seconds(10), else: false) { await events.contains(.connected) })

            serverClock.advance(by: .seconds(121))  // past the 120 s access token
            #expect(
                await within(.seconds(5), else: false) { await events.contains(.disconnected) },
                "the server closed the socket when its token expired")
            let sellerAgain = try await fixture.raw.login("max")
            _ = try await fixture.raw.sendMessage(
                "sent while you were away", in: conversationID, token: sellerAgain.tokens.accessToken)

            #expect(await within(.seconds(10), else: false) { await events.contains(.connected) }, "back")
            let caughtUp = await first(states, within: .seconds(10)) {
                $0.content?.messages.contains { $0.body == "sent while you were away" } == true
            }
            #expect(caughtUp != nil)
            #expect(try await fixture.serverRefreshCount() == 1, "one refresh, before the first reconnection")
            await connection.stop()
        }
    }

    @Test("a socket whose session is revoked is closed, and the socket does not come back: the session ends")
    func revokedSessionStopsTheSocket() async throws {
        try await SessionFixture.with { fixture in
            let user = try await fixture.starter().register(
                username: "mia", password: "password123", displayName: "Mia")
            let connection = LiveEventsConnection(
                baseURL: fixture.baseURL, network: user.network,
                backoff: RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .milliseconds(500)))
            let events = await connection.subscribe()
            #expect(await within(.seconds(10), else: false) { await events.contains(.connected) })
            // Signed out from elsewhere (or by a reused refresh token): the session is revoked.
            let token = try await user.network.session.validTokens().accessToken
            #expect(try await fixture.raw.post(APIRoutes.logout.template, token: token).status == 204)

            #expect(await within(.seconds(5), else: false) { await events.contains(.disconnected) })
            let ended = await within(.seconds(10), else: false) {
                while await !user.network.session.hasEnded {
                    // Cancelled when the wait is over: a sleep that throws ends the loop.
                    do { try await Task.sleep(for: .milliseconds(20)) } catch { return false }
                }
                return true
            }
            #expect(ended, "the refresh after the close was refused, which ends the session")
            #expect(try await fixture.waitForServerLiveSockets(0) == 0)
            #expect(try await fixture.serverRefreshCount(outcome: "invalid") == 1, "one refresh tried, none after")
            await connection.stop()
        }
    }

    @Test("a handshake nobody answers is given up after the handshake timeout, and the socket tries again")
    func silentHandshakeIsRetried() async throws {
        // Without the timeout the first attempt waits for an answer that never comes, and nothing
        // is ever published.
        let attempts = try await attemptsGivenUp(
            handshakeTimeout: .milliseconds(300), probeTimeout: .milliseconds(200), wanted: 3, within: .seconds(15))
        #expect(attempts == 3, "three attempts given up in turn")
    }

    @Test(
        "a handshake cut at any stage, even a tenth of a millisecond in, never wedges the socket",
        arguments: [100, 300, 1000])
    func handshakeCutAtAnyStage(microseconds: Int) async throws {
        // Cut while connecting, just connected, or waiting for the upgrade: each attempt must end.
        // When the cut shut the attempt's event loop down instead of closing its channel, an
        // attempt caught between connecting and awaiting the upgrade waited for good: each of
        // these cases failed on that code, every run.
        let attempts = try await attemptsGivenUp(
            handshakeTimeout: .microseconds(microseconds), probeTimeout: .milliseconds(20), wanted: 20,
            within: .seconds(60))
        #expect(attempts == 20, "twenty attempts given up in turn")
    }

    /// Points a live connection at a port that never answers and counts the attempts it gives up,
    /// until `wanted` or until `limit` has passed.
    private func attemptsGivenUp(
        handshakeTimeout: Duration, probeTimeout: Duration, wanted: Int, within limit: Duration
    ) async throws -> Int {
        let silent = try SilentListener()
        let tokens = AuthTokens(accessToken: "a", refreshToken: "r", expiresAt: Date().addingTimeInterval(3600))
        let session = TokenRefreshCoordinator(tokens: tokens, refresher: NoRefresher(), store: InMemoryTokenStore())
        // The probe after a failed handshake meets the same silence: its own timeout bounds it.
        let performer = NetworkRequestPerformer(cache: nil, retryPolicy: .never, timeout: probeTimeout)
        let network = AuthenticatedNetworkController(
            client: .bazaar(baseURL: silent.url, performer: performer), session: session, cachePartition: "silent")
        let connection = LiveEventsConnection(
            baseURL: silent.url, network: network,
            backoff: RetryPolicy(baseDelay: .milliseconds(5), maxDelay: .milliseconds(10), jitter: false),
            handshakeTimeout: handshakeTimeout)
        let events = await connection.subscribe()
        let given = Counter()
        await within(limit, else: ()) {
            for await event in events where event == .disconnected {
                given.increment()
                if given.value == wanted { break }
            }
        }
        await connection.stop()
        return given.value
    }

    @Test("after the server restarts, the socket reconnects and catches up on what it missed")
    func reconnectsAndCatchesUp() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = BazaarTestHarness.configuration(directory: directory)
        var server = try await BazaarServer.start(
            configuration: configuration, logger: TestServer.quietLogger(label: "live"))
        let raw = BazaarTestClient(baseURL: server.baseURL)
        let buyer = try await SessionStarter(client: .bazaar(baseURL: server.baseURL), tokenStore: InMemoryTokenStore())
            .register(username: "noa", password: "password123", displayName: "Noa")
        let seller = try await raw.register("ned")
        let connection = LiveEventsConnection(
            baseURL: server.baseURL, network: buyer.network,
            backoff: RetryPolicy(baseDelay: .milliseconds(500), maxDelay: .seconds(2), jitter: false))
        let outbox = try Outbox(
            path: directory.appendingPathComponent("outbox.sqlite").path,
            deliverer: BazaarOutboxDeliverer(network: buyer.network))
        let screen = ChatModule(session: buyer, outbox: outbox, connection: connection)
            .messagesScreen(user: seller.user, product: nil)
        let conversationID = try #require(await screen.logic.send(.load).content?.conversation.id)
        let events = await connection.subscribe()
        let states = await screen.logic.states()
        // Connected first, so what follows is a reconnection and its catch-up.
        #expect(await within(.seconds(10), else: false) { await events.contains(.connected) })

        await server.stop()
        configuration.port = server.port
        // The same port again: on a loaded machine it may not be free the moment the old
        // server has stopped, so try for a few seconds.
        var restarted: RunningBazaarServer?
        _ = try await eventually(within: .seconds(5), every: .milliseconds(200)) {
            restarted = try? await BazaarServer.start(
                configuration: configuration, logger: TestServer.quietLogger(label: "live"))
            return restarted != nil
        }
        server = try #require(restarted, "the server did not start again on port \(configuration.port)")
        // Sent before the socket is back: only the catch-up on reconnection can show it.
        _ = try await raw.sendMessage("while you were away", in: conversationID, token: seller.tokens.accessToken)
        let caughtUp = await first(states, within: .seconds(20)) {
            $0.content?.messages.contains { $0.body == "while you were away" } == true
        }
        #expect(caughtUp != nil)
        await connection.stop()
        await server.stop()
    }
}

/// Refuses every refresh: the silent-server test's tokens never need one.
private struct NoRefresher: TokenRefresher {
    func refresh(using refreshToken: String) async throws(NetworkError) -> AuthTokens {
        throw .sessionExpired
    }
}
