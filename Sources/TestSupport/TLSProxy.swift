import NIOCore
import NIOPosix
import NIOSSL
import NetworkingAsyncHTTPClient

/// A TLS-terminating proxy on loopback in front of a plain server, as an operator puts one in front
/// of `bazaar-server`: it accepts TLS with ``TestCertificates``' server certificate and relays the
/// bytes, both ways, to `127.0.0.1:backendPort`.
public enum TLSProxy {
    /// Runs a proxy to `backendPort` for the duration of `body`, which gets the proxy's port.
    public static func run<T: Sendable>(
        forwardingTo backendPort: Int, certificates: TestCertificates,
        _ body: @escaping @Sendable (Int) async throws -> T
    ) async throws -> T {
        let context = try NIOSSLContext(
            configuration: .makeServerConfiguration(
                certificateChain: [.certificate(certificates.server)], privateKey: .privateKey(certificates.serverKey)))
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let port = server.channel.localAddress?.port ?? 0
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await withThrowingDiscardingTaskGroup { connections in
                    try await server.executeThenClose { inbound in
                        for try await client in inbound {
                            connections.addTask { await relay(client, to: backendPort) }
                        }
                    }
                }
                return nil
            }
            group.addTask { try await body(port) }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            throw CancellationError()
        }
    }

    /// Relays `client` to the backend until either side ends.
    private static func relay(_ client: NIOAsyncChannel<ByteBuffer, ByteBuffer>, to backendPort: Int) async {
        do {
            let backend = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: backendPort) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
            try await ByteRelay.join(client, backend)
        } catch {
            // A client that goes away, or a failed handshake, ends only its own relay.
        }
    }
}
