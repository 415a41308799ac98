import NIOCore

/// Two connections joined: what arrives on one is written to the other, both ways. The kit's
/// trust tunnel relays AsyncHTTPClient's plain connection to the checked TLS origin this way,
/// and the test suite's TLS proxy its clients to a plain server.
package enum ByteRelay {
    /// Relays between `first` and `second` until either side ends, then closes both (each is
    /// closed through its async wrapper, which finishes its writer first, as NIO requires).
    /// Throws what ended a side abnormally; a side that ends normally ends the relay quietly.
    package static func join(
        _ first: NIOAsyncChannel<ByteBuffer, ByteBuffer>, _ second: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    ) async throws {
        try await first.executeThenClose { firstIn, firstOut in
            try await second.executeThenClose { secondIn, secondOut in
                try await withThrowingTaskGroup(of: Void.self) { pair in
                    pair.addTask { for try await bytes in firstIn { try await secondOut.write(bytes) } }
                    pair.addTask { for try await bytes in secondIn { try await firstOut.write(bytes) } }
                    // Either side ending ends the relay.
                    _ = try await pair.next()
                    pair.cancelAll()
                }
            }
        }
    }
}
