import BazaarAPI
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import BazaarServer

/// The close frame's code in the bytes a server sent after its `101`, if a close frame is among them.
private func closeCode(in bytes: [UInt8]) -> Int? {
    var index = 0
    while bytes.count - index >= 2 {
        let opcode = bytes[index] & 0x0F
        let length = Int(bytes[index + 1] & 0x7F)  // server frames here are short
        guard length < 126, bytes.count - index - 2 >= length else { return nil }
        if opcode == 0x8, length >= 2 { return Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]) }
        index += 2 + length
    }
    return nil
}

/// Upgrades `/v1/events` on `port` with `token`, sends `frame`, and returns the close code the server answers with.
private func closeCodeAfterSending(_ frame: [UInt8], port: Int, token: String) async throws -> Int? {
    try await offPool {
        // The server closes after the frame; the wait is only a cap, long for a loaded machine.
        let connection = try RawHTTP.Connection(port: port, timeoutSeconds: 10)
        try connection.send(BazaarTestHarness.eventSocketHandshake(token: token))
        try connection.send(Data(frame))
        let received = [UInt8](connection.receiveAll().response)
        guard
            let end = received.indices.first(where: {
                Array(received[$0..<min($0 + 4, received.count)]) == Array("\r\n\r\n".utf8)
            })
        else { return nil }
        return closeCode(in: Array(received[(end + 4)...]))
    }
}

/// A client text frame, masked with a zero key unless `masked` is false.
private func textFrame(_ payload: [UInt8], masked: Bool = true) -> [UInt8] {
    masked ? [0x81, 0x80 | UInt8(payload.count), 0, 0, 0, 0] + payload : [0x81, UInt8(payload.count)] + payload
}

@Suite("Event WebSocket hygiene")
struct EventSocketHygieneTests {
    @Test("an unmasked client frame closes the socket with 1002, a masked one does not")
    func unmaskedFrameIsAProtocolError() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let port = try #require(client.baseURL.port)
            #expect(
                try await closeCodeAfterSending(
                    textFrame(Array("hi".utf8), masked: false), port: port, token: ada.tokens.accessToken) == 1002)
            // A masked close frame (code 1000) is answered with the server's own close, 1000.
            let close: [UInt8] = [0x88, 0x82, 0, 0, 0, 0, 0x03, 0xE8]
            #expect(
                try await closeCodeAfterSending(
                    textFrame(Array("hi".utf8)) + close, port: port, token: ada.tokens.accessToken) == 1000)
        }
    }

    @Test("a text frame of invalid UTF-8 closes the socket with 1007")
    func invalidUTF8IsRefused() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let port = try #require(client.baseURL.port)
            #expect(
                try await closeCodeAfterSending(
                    textFrame([0xC3, 0x28, 0xFF]), port: port, token: ada.tokens.accessToken) == 1007)
        }
    }
}

@Suite("EventHub backlog")
struct EventHubBacklogTests {
    @Test("a subscriber that falls a backlog behind is dropped once, and the others still get every event")
    func overflowDropsOnlyTheSlowSubscriber() async throws {
        let hub = EventHub()
        let overflows = Mutex(0)
        let slow = await hub.subscribe(.ada("one"), backlog: 2, close: SocketCloseSignal()) {
            overflows.withLock { $0 += 1 }
        }
        let other = await hub.subscribe(.ada("two"), backlog: 10, close: SocketCloseSignal()) {}
        for index in 0..<4 { await hub.deliver("event \(index)", to: ["ada"]) }
        #expect(overflows.withLock { $0 } == 1)
        var kept: [String] = []
        for await frame in slow.events { kept.append(frame) }  // finished by the overflow
        #expect(kept == ["event 0", "event 1"])
        var received: [String] = []
        for await frame in other.events {
            received.append(frame)
            if received.count == 4 { break }
        }
        #expect(received == ["event 0", "event 1", "event 2", "event 3"])
    }
}

@Suite("EventHub closing sockets")
struct EventHubClosingTests {
    @Test("revoking a session closes its sockets with the reason first, and leaves the user's other sessions open")
    func revokeClosesOnlyThatSession() async throws {
        let hub = EventHub()
        let (phone, laptop) = (SocketCloseSignal(), SocketCloseSignal())
        let revoked = await hub.subscribe(.ada("phone"), backlog: 10, close: phone) {}
        let kept = await hub.subscribe(.ada("laptop"), backlog: 10, close: laptop) {}
        #expect(await hub.revoke(sessionIds: ["phone", "unknown"]) == 1)
        #expect(phone.reason == .sessionRevoked)
        #expect(laptop.reason == nil)
        for await _ in revoked.events { Issue.record("the revoked socket got an event") }  // finished
        await hub.deliver("after", to: ["ada"])
        var iterator = kept.events.makeAsyncIterator()
        #expect(await iterator.next() == "after")
        #expect(await hub.revoke(sessionIds: ["phone"]) == 0, "a socket is closed once")
    }

    @Test("a sweep closes the sockets whose token has expired by then, and only those")
    func sweepClosesExpiredSockets() async throws {
        let hub = EventHub()
        let start = Date(timeIntervalSince1970: 1_000_000)
        let (early, late) = (SocketCloseSignal(), SocketCloseSignal())
        _ = await hub.subscribe(.ada("early", expiresAt: start + 60), backlog: 10, close: early) {}
        _ = await hub.subscribe(.ada("late", expiresAt: start + 120), backlog: 10, close: late) {}
        #expect(await hub.closeExpired(now: start + 59.999) == 0)
        #expect(await hub.closeExpired(now: start + 60) == 1)
        #expect(early.reason == .tokenExpired && late.reason == nil)
        #expect(await hub.closeExpired(now: start + 119) == 0)
        #expect(await hub.closeExpired(now: start + 121) == 1)
        #expect(late.reason == .tokenExpired)
    }
}

extension EventHub.Listener {
    /// Ada listening with session `session`, her token expiring at `expiresAt` (far off by default).
    fileprivate static func ada(_ session: String, expiresAt: Date = .distantFuture) -> Self {
        Self(userId: "ada", sessionId: session, tokenExpiresAt: expiresAt)
    }
}
