import Crypto
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Networking
import Synchronization

/// A TLS connection made by the kit, so the kit can check the server's key: AsyncHTTPClient 1.37
/// builds its own TLS handlers and offers no hook to see the certificate it verified.
///
/// The tunnel listens on a Unix socket of its own. AsyncHTTPClient speaks plain HTTP/1.1 to it
/// (`http+unix://`), one socket connection per pooled connection, and for each the tunnel opens a
/// TLS connection to the origin: verified as usual by BoringSSL (chain to the configured roots,
/// host name, dates), then, once the handshake is done and before a byte of the request is
/// relayed, the key of the server's certificate is checked against the pins. A refusal closes
/// the socket connection and is kept, so the transport can throw it as
/// ``NetworkError/untrustedServer(reason:)`` instead of AsyncHTTPClient's "connection closed".
final class TrustTunnel: Sendable {
    /// The origin this tunnel reaches.
    let host: String
    let port: Int
    /// The socket AsyncHTTPClient connects to, percent-encoded as an `http+unix` URL's host.
    let urlPrefix: String
    private let socketPath: String
    private let server: any Channel
    private let failure: Mutex<NetworkError?>

    private init(host: String, port: Int, socketPath: String, server: any Channel) {
        self.host = host
        self.port = port
        self.socketPath = socketPath
        self.server = server
        self.failure = Mutex(nil)
        let encoded = socketPath.addingPercentEncoding(withAllowedCharacters: .urlHostAllowed) ?? socketPath
        self.urlPrefix = "http+unix://" + encoded
    }

    deinit {
        server.close(promise: nil)
        unlink(socketPath)
    }

    /// Opens a tunnel to `host:port` that trusts what `context` trusts and, when `pins` is not
    /// empty, only a server whose key hashes to one of them.
    static func open(host: String, port: Int, context: NIOSSLContext, pins: Set<Data>) async throws -> TrustTunnel {
        let socketPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("bazaar-tls-\(UUID().uuidString.prefix(13)).sock").path
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(unixDomainSocketPath: socketPath, cleanupExistingSocketFile: true) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let tunnel = TrustTunnel(host: host, port: port, socketPath: socketPath, server: listener.channel)
        let origin = Origin(host: host, port: port, context: context, pins: pins)
        // The accept loop holds the tunnel weakly: when the transport lets go of it, `deinit`
        // closes the listener, the loop ends, and connections still open finish on their own.
        Task { [weak tunnel] in
            try? await withThrowingDiscardingTaskGroup { connections in
                try await listener.executeThenClose { inbound in
                    for try await client in inbound {
                        connections.addTask {
                            if let failure = await origin.relay(client) { tunnel?.record(failure) }
                        }
                    }
                }
            }
        }
        return tunnel
    }

    /// Keeps the refusal of a connection for the request that used it.
    private func record(_ failure: NetworkError) {
        self.failure.withLock { $0 = failure }
    }

    /// The last refusal, taken: a request whose connection was closed by the tunnel throws it.
    func takeFailure() -> NetworkError? {
        failure.withLock { failure in
            defer { failure = nil }
            return failure
        }
    }
}

/// The far side of a ``TrustTunnel``: how to reach and judge the origin.
private struct Origin: Sendable {
    let host: String
    let port: Int
    let context: NIOSSLContext
    let pins: Set<Data>

    /// Connects to the origin, checks it, and relays `client` to it until either side ends;
    /// returns why the origin was refused or unreachable, or nil.
    func relay(_ client: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async -> NetworkError? {
        let origin: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            let (channel, checked) = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let isAddress = (try? SocketAddress(ipAddress: host, port: 0)) != nil
                        let tls = try NIOSSLClientHandler(context: context, serverHostname: isAddress ? nil : host)
                        let check = KeyCheck(pins: pins, promise: channel.eventLoop.makePromise())
                        try channel.pipeline.syncOperations.addHandlers(tls, check)
                        return (
                            try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel),
                            check.promise.futureResult
                        )
                    }
                }
            origin = channel
            do {
                try await checked.get()
            } catch {
                // Closed through the async wrapper: it finishes its writer first, which NIO requires
                // of every NIOAsyncChannel (a bare channel close trapped in a test run).
                try? await origin.executeThenClose { _, _ in }
                throw error
            }
        } catch {
            try? await client.executeThenClose { _, _ in }
            return Self.failure(error)
        }
        do {
            try await ByteRelay.join(client, origin)
        } catch {
            // A side that goes away mid-exchange: AsyncHTTPClient sees the socket close and says so.
        }
        return nil
    }

    /// The kit's error for a connection to the origin that failed or was refused.
    private static func failure(_ error: any Error) -> NetworkError {
        switch error {
        case let refusal as KeyCheck.Refusal:
            return .untrustedServer(reason: refusal.reason)
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return .untrustedServer(reason: "the certificate is not for this host name")
        case let error as NIOSSLError:
            if case .handshakeFailed(let inner) = error {
                return .untrustedServer(reason: "the TLS handshake failed (\(inner))")
            }
            return .untrustedServer(reason: "\(error)")
        case let error as NIOConnectionError:
            return .noConnection(reason: error.connectionErrors.first.map { "\($0.target): \($0.error)" } ?? "\(error)")
        default:
            return .noConnection(reason: "\(error)")
        }
    }
}

/// Checks the server's key against the pins once the handshake (and with it the usual
/// verification) is done, before the relay sends a byte of the request.
private final class KeyCheck: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// A server whose key matches none of the pins.
    struct Refusal: Error {
        let reason: String
    }

    let pins: Set<Data>
    let promise: EventLoopPromise<Void>
    private var settled = false

    init(pins: Set<Data>, promise: EventLoopPromise<Void>) {
        self.pins = pins
        self.promise = promise
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent {
            do {
                try judge(context)
                settle(.success(()))
            } catch {
                settle(.failure(error))
                context.close(promise: nil)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func judge(_ context: ChannelHandlerContext) throws {
        guard !pins.isEmpty else { return }
        let tls = try context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self)
        guard let certificate = tls.peerCertificate else {
            throw Refusal(reason: "the server presented no certificate")
        }
        let key = Data(SHA256.hash(data: try certificate.extractPublicKey().toSPKIBytes()))
        guard pins.contains(key) else {
            let presented = "sha256/" + key.base64EncodedString()
            throw Refusal(reason: "its key \(presented) matches none of the \(pins.count) pinned keys")
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        settle(.failure(error))
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        settle(.failure(ChannelError.ioOnClosedChannel))
        context.fireChannelInactive()
    }

    private func settle(_ result: Result<Void, any Error>) {
        guard !settled else { return }
        settled = true
        promise.completeWith(result)
    }
}
