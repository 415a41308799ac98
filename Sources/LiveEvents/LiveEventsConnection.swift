import BazaarAPI
import Dependencies
import Foundation
import Logging
import NIOSSL
import Networking
import Session

/// The signed-in user's live events over the `/v1/events` WebSocket: one socket shared by every
/// screen, authenticated with the session's current access token, reconnecting with exponential
/// backoff (and jitter) whenever it drops, until stopped.
///
/// When a handshake fails, or the server closes an open socket with `1008` (its access token
/// expired, or its session was revoked), the next attempt is preceded by one authenticated request:
/// if the server refuses the token, that request's 401 refreshes it (through the one refresh
/// coordinator), so the socket never keeps knocking with a token the server no longer takes; and
/// when the session was revoked that refresh fails, the session ends, and the socket stops.
///
/// A socket that is not open (the server's `ready` received) within the handshake timeout is given
/// up and counts as a failed attempt: a server or network that accepts the connection and never
/// answers it cannot hold the live events back for good.
public actor LiveEventsConnection: LiveEventSource {
    private let url: String
    private let network: AuthenticatedNetworkController
    private let backoff: RetryPolicy
    private let handshakeTimeout: Duration
    private let tls: TLSConfiguration
    /// Made from ``tls`` at the first `wss://` attempt and kept: loading roots is not free.
    private var tlsContext: NIOSSLContext?
    private let logger: Logger
    private var subscribers: [UUID: AsyncStream<LiveConnectionEvent>.Continuation] = [:]
    private var worker: Task<Void, Never>?
    /// Whether the current attempt's socket opened (its `ready` came).
    private var opened = false
    /// The close code of the current attempt's socket, when the server closed it with a frame.
    private var closeCode: UInt16?
    private var isOpen = false

    /// Makes a connection to `baseURL`'s event socket for the user whose controller `network` is:
    /// `wss://` for an `https` base URL (verified against `tls`: the system's roots and the
    /// server's name by default), `ws://` for `http`.
    ///
    /// `handshakeTimeout` bounds each attempt from connecting to the server's `ready`; an open socket
    /// then lives as long as the server keeps it.
    public init(
        baseURL: URL, network: AuthenticatedNetworkController,
        backoff: RetryPolicy = RetryPolicy(baseDelay: .milliseconds(250), maxDelay: .seconds(15)),
        handshakeTimeout: Duration = .seconds(10),
        tls: TLSConfiguration = .makeClientConfiguration(),
        logger: Logger = Logger(label: "bazaar.live")
    ) {
        url =
            baseURL.absoluteString.replacingOccurrences(of: "http", with: "ws", options: .anchored)
            + APIRoutes.events.template
        self.network = network
        self.backoff = backoff
        self.handshakeTimeout = handshakeTimeout
        self.tls = tls
        self.logger = logger
    }

    /// A stream of connection events from now on; connecting starts with the first subscriber.
    ///
    /// A subscriber that arrives while the socket is open gets ``LiveConnectionEvent/connected``
    /// first, as on every reconnection: what happened before it subscribed is its to catch up on.
    public func subscribe() -> AsyncStream<LiveConnectionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveConnectionEvent.self)
        let id = UUID()
        subscribers[id] = continuation
        if isOpen { continuation.yield(.connected) }
        continuation.onTermination = { _ in Task { await self.unsubscribe(id) } }
        if worker == nil { worker = Task { await self.run() } }
        return stream
    }

    /// Closes the socket and stops reconnecting; subscribers' streams end.
    public func stop() {
        worker?.cancel()
        worker = nil
        for subscriber in subscribers.values { subscriber.finish() }
        subscribers = [:]
    }

    /// An event from the socket: `ready` opens it; the rest go to subscribers.
    private func received(_ event: LiveEvent) {
        if case .ready = event {
            opened = true
            isOpen = true
            publish(.connected)
        } else {
            publish(.event(event))
        }
    }

    private func didClose() {
        isOpen = false
        publish(.disconnected)
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }

    private func publish(_ event: LiveConnectionEvent) {
        for subscriber in subscribers.values { subscriber.yield(event) }
    }

    private func run() async {
        var failures = 0
        while !Task.isCancelled {
            if await network.session.hasEnded { return }
            let opened = await connectOnce()
            didClose()
            failures = opened ? 1 : failures + 1
            let wait = backoff.backoff(forRetry: failures, random: { Double.random(in: $0) })
            try? await Task.sleep(for: wait)
            if !opened || closeCode == LiveEventsSocket.credentialEnded {
                // Was the token refused, or has it expired? An authenticated request refreshes it
                // if so (and ends the session if the session was revoked). Its answer is not
                // needed, and its failure is the session's to report.
                _ = try? await network.request(BazaarEndpoints.me)
            }
        }
    }

    /// One connection, until it closes or fails to open within the handshake timeout; returns
    /// whether it opened at all.
    private func connectOnce() async -> Bool {
        let token: String
        do throws(NetworkError) {
            token = try await network.session.validTokens().accessToken
        } catch {
            return false
        }
        opened = false
        closeCode = nil
        let limit = handshakeTimeout
        var configured = LiveEventsSocket(url: url, authorization: "Bearer \(token)")
        if url.hasPrefix("wss:") {
            do {
                configured.tlsContext = try secureContext()
            } catch {
                // A configuration that cannot be loaded (a bad root file) fails every attempt alike.
                logger.error("live events TLS configuration refused", metadata: ["error": "\(error)"])
                return false
            }
        }
        let socket = configured
        let handle = SocketHandle()
        await withTaskGroup(of: Bool.self) { group in
            // true: the socket ended; false: the handshake timeout passed (or the worker was stopped).
            group.addTask {
                await self.run(socket, handle: handle)
                return true
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            // Past the timeout only an open socket is waited for, and only until the worker is stopped.
            while let socketEnded = await group.next(), !socketEnded, !Task.isCancelled {
                guard opened else {
                    logger.debug(
                        "live events socket not ready in time; trying again", metadata: ["timeout": "\(limit)"])
                    break
                }
            }
            // Closing the channel ends the socket wherever it is (connecting is bounded by the
            // same timeout), so the group's wait for it is short, and nothing it received is
            // published after this attempt.
            handle.cut()
            group.cancelAll()
        }
        return opened
    }

    /// The TLS context for `wss://`, made once.
    private func secureContext() throws -> NIOSSLContext {
        if let tlsContext { return tlsContext }
        let made = try NIOSSLContext(configuration: tls)
        tlsContext = made
        return made
    }

    /// Runs one socket until it closes, publishing what it receives.
    private func run(_ socket: LiveEventsSocket, handle: SocketHandle) async {
        // One decoder per socket, not one per message.
        let decoder = BazaarJSON.makeDecoder()
        do {
            let code = try await socket.run(connectTimeout: handshakeTimeout, handle: handle) { text in
                guard let event = try? decoder.decode(LiveEvent.self, from: Data(text.utf8)) else { return }
                await self.received(event)
            }
            closeCode = code
            if let code { logger.debug("live events socket closed by the server", metadata: ["code": "\(code)"]) }
        } catch {
            logger.debug("live events socket closed", metadata: ["error": "\(error)"])
        }
    }
}
