import BazaarAPI
import Foundation
import Logging
import Hummingbird
import HummingbirdWebSocket

/// `GET /v1/events`: the live-event WebSocket.
///
/// The upgrade is decided on a separate WebSocket router: a request with a valid token
/// (`Authorization: Bearer` or `?token=`) is upgraded; anything else falls through to the HTTP
/// route here, which answers 401 without a valid token and 426 for a plain HTTP GET.
struct EventRoutes: RouteGroup {
    let deps: ServerDependencies

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

    /// The router that decides WebSocket upgrades and runs the socket.
    func makeWebSocketRouter() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        let deps = self.deps
        router.ws(
            RouterPath(APIRoutes.events.template),
            shouldUpgrade: { request, _ in
                _ = try await deps.authenticator.authenticate(request, allowQueryToken: true)
                return .upgrade([:])
            },
            onUpgrade: { inbound, outbound, context in
                guard let caller = try? await deps.authenticator.authenticate(context.request, allowQueryToken: true) else {
                    return
                }
                let subscription = await deps.hub.subscribe(userId: caller.userId)
                let encoder = BazaarJSON.makeEncoder()
                do {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            let ready = try encoder.encode(LiveEvent.ready(Ready(userId: caller.userId)))
                            try await outbound.write(.text(String(decoding: ready, as: UTF8.self)))
                            for await event in subscription.events {
                                let data = try encoder.encode(event)
                                try await outbound.write(.text(String(decoding: data, as: UTF8.self)))
                            }
                        }
                        group.addTask {
                            // Clients send nothing we need; reading keeps the close handshake flowing.
                            for try await _ in inbound.messages(maxSize: 64 * 1024) {}
                        }
                        _ = try await group.next()
                        group.cancelAll()
                    }
                } catch {
                    context.logger.debug("event socket ended", metadata: ["error.type": "\(type(of: error))"])
                }
                await deps.hub.unsubscribe(userId: caller.userId, id: subscription.id)
            }
        )
        return router
    }
}
