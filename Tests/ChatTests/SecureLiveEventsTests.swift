import BazaarAPI
import Dependencies
import Foundation
import LiveEvents
import NIOSSL
import Networking
import Session
import TestSupport
import Testing

@testable import LiveEvents

/// The live socket behind HTTPS: the real server behind a TLS-terminating proxy on loopback, with a
/// certificate authority made in the test.
@Suite("Live events over wss://", .timeLimit(.minutes(2)))
struct SecureLiveEventsTests {
    @Test("behind an HTTPS proxy the socket connects over wss:// and receives events")
    func connectsOverTLS() async throws {
        let certificates = try TestCertificates()
        try await SessionFixture.with { fixture in
            let user = try await fixture.starter().register(
                username: "mia", password: "password123", displayName: "Mia")
            let seller = try await fixture.raw.register("max")
            let backendPort = try #require(fixture.baseURL.port)
            try await TLSProxy.run(forwardingTo: backendPort, certificates: certificates) { (proxyPort: Int) -> Void in
                let connection = LiveEventsConnection(
                    baseURL: try #require(URL(string: "https://localhost:\(proxyPort)")), network: user.network,
                    tls: certificates.trustingClient)
                let events = await connection.subscribe()
                #expect(await within(.seconds(10), else: false) { await events.contains(.connected) })
                let conversation = try await fixture.raw.startConversation(
                    with: user.userID, token: seller.tokens.accessToken)
                _ = try await fixture.raw.sendMessage(
                    "sent over TLS", in: conversation.id, token: seller.tokens.accessToken)
                let received = await within(.seconds(10), else: false) {
                    for await event in events {
                        if case .event(.messageCreated(let message)) = event, message.body == "sent over TLS" {
                            return true
                        }
                    }
                    return false
                }
                #expect(received)
                await connection.stop()
            }
        }
    }

    @Test("a wss:// server is refused when its certificate is not trusted or names another host")
    func untrustedServersAreRefused() async throws {
        let certificates = try TestCertificates()
        try await SessionFixture.with { fixture in
            let user = try await fixture.raw.register("mia")
            let backendPort = try #require(fixture.baseURL.port)
            try await TLSProxy.run(forwardingTo: backendPort, certificates: certificates) { (proxyPort: Int) -> Void in
                let trusting = try NIOSSLContext(configuration: certificates.trustingClient)
                let cases: [(url: String, context: NIOSSLContext?)] = [
                    // The system's roots do not know the test's authority.
                    ("wss://localhost:\(proxyPort)/v1/events", nil),
                    // Trusted authority, but the certificate names localhost, not this address.
                    ("wss://127.0.0.1:\(proxyPort)/v1/events", trusting),
                ]
                for (url, context) in cases {
                    var socket = LiveEventsSocket(url: url, authorization: "Bearer \(user.tokens.accessToken)")
                    socket.tlsContext = context
                    let error = await #expect(throws: (any Error).self, "\(url)") {
                        try await socket.run(connectTimeout: .seconds(5), handle: SocketHandle()) { _ in }
                    }
                    // The handshake itself refuses it (an unknown authority, or a name the certificate lacks).
                    #expect(error is NIOSSLError || error is NIOSSLExtraError, "\(url): \(String(describing: error))")
                }
                // The same socket with the authority trusted and the right name opens.
                var configured = LiveEventsSocket(
                    url: "wss://localhost:\(proxyPort)/v1/events", authorization: "Bearer \(user.tokens.accessToken)")
                configured.tlsContext = trusting
                let trusted = configured
                let handle = SocketHandle()
                let first = await within(.seconds(10), else: String?.none) {
                    let texts = AsyncStream<String>.makeStream()
                    let running = Task {
                        try await trusted.run(connectTimeout: .seconds(5), handle: handle) {
                            texts.continuation.yield($0)
                        }
                    }
                    defer {
                        handle.cut()
                        running.cancel()
                    }
                    for await text in texts.stream { return text }
                    return nil
                }
                #expect(first?.contains("\"ready\"") == true)
            }
        }
    }

    @Test("a URL that is neither ws:// nor wss:// is a typed error")
    func otherSchemesAreRefused() async throws {
        let socket = LiveEventsSocket(url: "https://localhost/v1/events", authorization: "Bearer x")
        await #expect(throws: LiveEventsSocket.Failure.self) {
            try await socket.run(connectTimeout: .seconds(1), handle: SocketHandle()) { _ in }
        }
    }
}
