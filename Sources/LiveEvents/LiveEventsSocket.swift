import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// One WebSocket to the server's event route, on SwiftNIO's own WebSocket support: connect (over
/// TLS for `wss://`, verifying the server's certificate and name), upgrade with the caller's
/// `Authorization`, then hand each text message to the caller until the server closes the socket,
/// the handle cuts it, or the task is cancelled.
///
/// It is written on NIO rather than a WebSocket client library because the handshake must be
/// cut off at a deadline: a library that keeps the channel to itself can only be stopped by
/// shutting its event loop down, which leaves work scheduled on a dead loop.
struct LiveEventsSocket: Sendable {
    /// Why a socket could not be opened.
    enum Failure: Error, CustomStringConvertible {
        /// The URL has no host, or is neither `ws://` nor `wss://`.
        case invalidURL(String)
        /// The server answered the handshake without upgrading (for example 401).
        case notUpgraded

        var description: String {
            switch self {
            case .invalidURL(let url): "not a ws:// or wss:// URL with a host: \(url)"
            case .notUpgraded: "the server did not upgrade the connection to a WebSocket"
            }
        }
    }

    /// What the handshake ends with.
    private enum Upgrade: Sendable {
        case webSocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case notUpgraded
    }

    /// The close code of a server that ended the socket because its credential no longer holds
    /// (policy violation): the access token expired or the session was revoked.
    static let credentialEnded: UInt16 = 1008

    /// The `ws://` or `wss://` URL of the event route, with any query.
    let url: String
    /// The `Authorization` header's value.
    let authorization: String
    /// How a `wss://` server is trusted; `nil` makes one with the system's roots and full
    /// verification of the certificate and the server's name.
    var tlsContext: NIOSSLContext?
    /// The largest message accepted, whole or in fragments.
    var maxMessageBytes = 1 << 20

    /// Connects (giving up after `connectTimeout`), upgrades, and calls `receive` with each text
    /// message until the socket closes. `handle` gets the channel as soon as it exists. Returns
    /// the code of the server's close frame (`nil` when the socket ended without one).
    @discardableResult
    func run(connectTimeout: Duration, handle: SocketHandle, receive: @Sendable (String) async -> Void) async throws
        -> UInt16?
    {
        guard let url = URL(string: url), let scheme = url.scheme, scheme == "ws" || scheme == "wss",
            let host = url.host, !host.isEmpty
        else { throw Failure.invalidURL(url) }
        let secure = scheme == "wss"
        let port = url.port ?? (secure ? 443 : 80)
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        let head = HTTPRequestHead(
            version: .http1_1, method: .GET, uri: target,
            headers: [
                "Host": url.port == nil ? host : "\(host):\(port)", "Authorization": authorization,
                "Content-Length": "0",
            ])
        let maxBytes = maxMessageBytes
        let tlsContext = secure ? try tlsContext ?? NIOSSLContext(configuration: .makeClientConfiguration()) : nil
        // SNI carries names only; an address is still checked against the certificate's IP entries.
        let isAddress = host.contains(":") || host.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
        let serverName = isAddress ? nil : host
        let upgrade: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(TimeAmount(connectTimeout))
            .connect(host: host, port: port) { channel in
                handle.attach(channel)
                return channel.eventLoop.makeCompletedFuture {
                    if let tlsContext {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tlsContext, serverHostname: serverName))
                    }
                    return try Self.configure(channel, head: head, maxBytes: maxBytes, handle: handle)
                }
            }
        switch try await upgrade.get() {
        case .notUpgraded:
            throw Failure.notUpgraded
        case .webSocket(let channel):
            return try await channel.executeThenClose { inbound, outbound -> UInt16? in
                for try await frame in inbound {
                    switch frame.opcode {
                    case .text:
                        await receive(String(buffer: frame.unmaskedData))
                    case .ping:
                        try await outbound.write(
                            WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
                    case .connectionClose:
                        // Echo the server's close, then the channel closes as this returns.
                        var data = frame.unmaskedData
                        try? await outbound.write(
                            WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data))
                        return data.readWebSocketErrorCode().map { UInt16(webSocketErrorCode: $0) }
                    default:
                        continue
                    }
                }
                return nil
            }
        }
    }

    /// Sets `channel` up for an HTTP/1.1 request that asks for a WebSocket; the future says how it ended.
    private static func configure(
        _ channel: any Channel, head: HTTPRequestHead, maxBytes: Int, handle: SocketHandle
    ) throws -> EventLoopFuture<Upgrade> {
        let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: maxBytes) { channel, _ in
            channel.eventLoop.makeCompletedFuture {
                // Fragments arrive as one message; their total is bounded like a single frame.
                try channel.pipeline.syncOperations.addHandler(
                    NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 256, maxAccumulatedFrameSize: maxBytes))
                handle.upgraded()
                return .webSocket(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
            }
        }
        let upgrade = NIOTypedHTTPClientUpgradeConfiguration(
            upgradeRequestHead: head, upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(.notUpgraded) })
        var configuration = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgrade)
        // The server's first frame may come in the same read as its 101.
        configuration.leftOverBytesStrategy = .forwardBytes
        return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: configuration)
    }
}
