import BazaarAPI
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// `GET /v1/events`: the live-event WebSocket.
///
/// A handshake is first checked by ``handshakeCheck()`` (see ``BazaarHTTPChannel``): without a
/// valid token (`Authorization: Bearer` or `?token=`) it continues as a plain GET, which the HTTP
/// route here answers 401. With one, the separate WebSocket router upgrades it. A plain GET with
/// a valid token is answered 426.
struct EventRoutes: RouteGroup {
    let deps: ServerDependencies
    /// Frames that may wait for one socket before it is cut (``ConnectionPolicy/webSocketBacklog``).
    var backlog = ConnectionPolicy().webSocketBacklog

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.events) { request, _ in
            _ = try await deps.authenticator.authenticate(request, allowQueryToken: true)
            var headers = HTTPFields()
            headers[.upgrade] = "websocket"
            return APIError(
                status: .upgradeRequired, code: "upgrade_required",
                message: "This route is a WebSocket; connect with an Upgrade: websocket request.", headers: headers
            ).makeResponse()
        }
    }

    /// Whether a handshake's token (header or `?token=`) is valid, checked before the upgrade.
    func handshakeCheck() -> @Sendable (HTTPRequestHead) async -> Bool {
        let deps = self.deps
        return { head in
            var fields = HTTPFields()
            if let authorization = head.headers.first(name: "authorization") { fields[.authorization] = authorization }
            let request = Request(
                head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: head.uri, headerFields: fields),
                body: .init(buffer: ByteBuffer()))
            return (try? await deps.authenticator.authenticate(request, allowQueryToken: true)) != nil
        }
    }

    /// The router that decides WebSocket upgrades and runs the socket.
    func makeWebSocketRouter() -> Router<EventSocketContext> {
        let router = Router(context: EventSocketContext.self)
        let deps = self.deps
        let backlog = self.backlog
        router.ws(
            RouterPath(APIRoutes.events.template),
            shouldUpgrade: { request, _ in
                _ = try await deps.authenticator.authenticate(request, allowQueryToken: true)
                return .upgrade([:])
            },
            onUpgrade: { inbound, outbound, context in
                guard let caller = try? await deps.authenticator.authenticate(context.request, allowQueryToken: true)
                else {
                    return
                }
                // A socket `backlog` frames behind is cut: its writer waits on a client that does not read.
                let channel = context.requestContext.channel
                let close = SocketCloseSignal()
                let listener = EventHub.Listener(
                    userId: caller.userId, sessionId: caller.sessionId, tokenExpiresAt: caller.tokenExpiresAt)
                let subscription = await deps.hub.subscribe(listener, backlog: backlog, close: close) {
                    context.logger.notice(
                        "event socket too far behind; closed", metadata: ["user.id": "\(caller.userId)"])
                    channel.close(promise: nil)
                }
                deps.metrics.recordLiveSocket(1)
                let encoder = BazaarJSON.makeEncoder()
                do {
                    // At a graceful stop the subscription ends, so the socket's writer returns and
                    // swift-websocket's close handshake (bounded by its close timeout) follows. Its
                    // own stop handler only sends a close frame: a client that never answers it
                    // held the server's stop for good.
                    try await withGracefulShutdownHandler {
                        try await Self.serve(
                            subscription.events, to: outbound, reading: inbound, ready: caller.userId, until: close,
                            encoder: encoder)
                    } onGracefulShutdown: {
                        Task { await deps.hub.unsubscribe(userId: caller.userId, id: subscription.id) }
                    }
                } catch {
                    // swift-websocket turns a client's protocol error (invalid UTF-8, an oversized
                    // message) into the matching close code only when the error reaches it.
                    context.logger.debug("event socket ended", metadata: ["error.type": "\(type(of: error))"])
                    await deps.hub.unsubscribe(userId: caller.userId, id: subscription.id)
                    deps.metrics.recordLiveSocket(-1)
                    throw error
                }
                await deps.hub.unsubscribe(userId: caller.userId, id: subscription.id)
                deps.metrics.recordLiveSocket(-1)
                if let reason = close.reason {
                    context.logger.info(
                        "event socket closed: \(reason.reason)",
                        metadata: ["user.id": "\(caller.userId)", "session.id": "\(caller.sessionId)"])
                    do {
                        try await outbound.close(reason.code, reason: reason.reason)
                    } catch {
                        // The connection is already gone: nothing is left to tell.
                        context.logger.debug("close frame not sent", metadata: ["error.type": "\(type(of: error))"])
                    }
                }
            }
        )
        return router
    }

    /// Writes the `ready` event for `userId`, then each frame of `events` (encoded once by the hub,
    /// shared by all its sockets), while reading what the client sends; returns when either ends
    /// or `close` fires (then nothing more is written: the caller sends the close frame).
    private static func serve(
        _ events: AsyncStream<String>, to outbound: WebSocketOutboundWriter, reading inbound: WebSocketInboundStream,
        ready userId: String, until close: SocketCloseSignal, encoder: JSONEncoder
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let ready = try encoder.encode(LiveEvent.ready(Ready(userId: userId)))
                try await outbound.write(.text(String(decoding: ready, as: UTF8.self)))
                for await frame in events {
                    try await outbound.write(.text(frame))
                }
            }
            group.addTask {
                // Clients send nothing we need; reading keeps the close handshake flowing.
                for try await _ in inbound.messages(maxSize: 64 * 1024) {}
            }
            group.addTask {
                await close.wait()
            }
            _ = try await group.next()
            group.cancelAll()
        }
    }
}
