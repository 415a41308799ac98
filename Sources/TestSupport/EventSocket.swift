import BazaarAPI
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import WSClient

/// A live-event WebSocket connection for tests: connects, waits for the `ready` frame, and
/// collects every later event for ``next(timeout:)``.
public final class EventSocket: Sendable {
    private let inbox = Mutex<[LiveEvent]>([])
    private let closed = Mutex(false)
    /// The close frame the server ended the socket with, once it has.
    private let serverClose = Mutex<Close?>(nil)

    /// A close frame from the server.
    public struct Close: Sendable, Equatable {
        /// The close code (`1008` for a revoked session or an expired token).
        public let code: Int
        /// The reason text, if any.
        public let reason: String?
    }
    private let closeRequested = Mutex(false)
    private let task = Mutex<Task<Void, any Error>?>(nil)

    /// How the socket presents its access token.
    public enum Credential: Sendable {
        /// `Authorization: Bearer <token>`.
        case header(String)
        /// `?token=<token>`.
        case query(String)
    }

    private init() {}

    /// Connects to `/v1/events` and returns once the server said `ready`; throws when refused.
    public static func connect(baseURL: URL, credential: Credential) async throws -> EventSocket {
        let socket = EventSocket()
        var url = baseURL.absoluteString.replacingOccurrences(of: "http://", with: "ws://") + APIRoutes.events.template
        var configuration = WebSocketClientConfiguration()
        switch credential {
        case .header(let token): configuration.additionalHeaders[.authorization] = "Bearer \(token)"
        case .query(let token): url += "?token=\(token)"
        }
        let task = Task { [url, configuration] in
            defer { socket.closed.withLock { $0 = true } }
            let close = try await WebSocketClient.connect(
                url: url, configuration: configuration, logger: Logger(label: "test-ws")
            ) { inbound, outbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            guard case .text(let text) = message,
                                let event = try? BazaarJSON.makeDecoder().decode(LiveEvent.self, from: Data(text.utf8))
                            else { continue }
                            socket.inbox.withLock { $0.append(event) }
                        }
                    }
                    group.addTask {
                        while !socket.closeRequested.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                    _ = try await group.next()
                    group.cancelAll()
                }
            }
            if !socket.closeRequested.withLock({ $0 }), let close {
                let code = Int(UInt16(webSocketErrorCode: close.closeCode))
                socket.serverClose.withLock { $0 = Close(code: code, reason: close.reason) }
            }
        }
        socket.task.withLock { $0 = task }
        guard case .ready? = await socket.next(timeout: .seconds(10)) else {
            await socket.close()
            throw EventSocketError.notReady
        }
        return socket
    }

    /// The next event, or `nil` when none arrives within `timeout`.
    public func next(timeout: Duration) async -> LiveEvent? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let event = inbox.withLock { events -> LiveEvent? in events.isEmpty ? nil : events.removeFirst() }
            if let event { return event }
            if closed.withLock({ $0 }) { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// The first event that `matches`, dropping those before it; `nil` when none arrives within
    /// `timeout`. On PostgreSQL events reach a socket through LISTEN/NOTIFY, so the events of
    /// writes made just before it connected can still arrive: a test that needs a clean start
    /// causes a marker event and waits for it here.
    public func first(within timeout: Duration, where matches: (LiveEvent) -> Bool) async -> LiveEvent? {
        let deadline = ContinuousClock.now + timeout
        while case let left = deadline - ContinuousClock.now, left > .zero {
            guard let event = await next(timeout: left) else { return nil }
            if matches(event) { return event }
        }
        return nil
    }

    /// The close frame the server ends the socket with (its code and reason), waiting at most
    /// `timeout` for it; `nil` when the socket is still open then (or ended without a close frame).
    public func serverClosed(within timeout: Duration) async -> Close? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if closed.withLock({ $0 }) { return serverClose.withLock { $0 } }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Whether the socket is still open (the server has not closed it, nor has ``close()``).
    public var isOpen: Bool {
        !closed.withLock { $0 }
    }

    /// Closes the socket and waits for the connection to end.
    public func close() async {
        closeRequested.withLock { $0 = true }
        let task = self.task.withLock { $0 }
        _ = await task?.result
    }
}

/// Why an event socket could not be used.
public enum EventSocketError: Error {
    /// The connection was refused or did not send `ready`.
    case notReady
}
