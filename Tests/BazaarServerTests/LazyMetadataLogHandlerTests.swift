import BazaarServer
import Logging
import Synchronization
import Testing

/// The lazy handler writes exactly what swift-log's stream handler writes.
@Suite("LazyMetadataLogHandler")
struct LazyMetadataLogHandlerTests {
    /// Collects what a handler writes.
    final class Lines: TextOutputStream, Sendable {
        private let text = Mutex("")
        func write(_ string: String) { text.withLock { $0 += string } }
        /// The lines without their timestamps (the first field).
        var withoutTimestamps: [String] {
            text.withLock { $0 }.split(separator: "\n").map { String($0.drop { $0 != " " }) }
        }
    }

    @Test("lines carry the logger's metadata under the line's own, as the stream handler writes them")
    func writesWhatTheStreamHandlerWrites() {
        let lazyLines = Lines()
        let streamLines = Lines()
        var lazy = Logger(label: "bazaar-test") {
            LazyMetadataLogHandler(stream: StreamLogHandler(label: $0, stream: lazyLines))
        }
        var stream = Logger(label: "bazaar-test") { StreamLogHandler(label: $0, stream: streamLines) }
        lazy.logLevel = .debug
        stream.logLevel = .debug
        lazy[metadataKey: "hb.request.id"] = "r1"
        stream[metadataKey: "hb.request.id"] = "r1"
        lazy[metadataKey: "user.id"] = "u1"
        stream[metadataKey: "user.id"] = "u1"
        for logger in [lazy, stream] {
            logger.info("plain")
            logger.debug("with its own", metadata: ["user.id": "u2", "route": "/v1/products"])
            logger.trace("below the level")
        }
        var bare = Logger(label: "bazaar-test") {
            LazyMetadataLogHandler(stream: StreamLogHandler(label: $0, stream: lazyLines))
        }
        bare.logLevel = .info
        bare.warning("no metadata at all")
        var bareStream = Logger(label: "bazaar-test") { StreamLogHandler(label: $0, stream: streamLines) }
        bareStream.logLevel = .info
        bareStream.warning("no metadata at all")
        #expect(lazyLines.withoutTimestamps.count == 3)
        #expect(lazyLines.withoutTimestamps == streamLines.withoutTimestamps)
        #expect(
            lazyLines.withoutTimestamps.first
                == " info bazaar-test: hb.request.id=r1 user.id=u1 [BazaarServerTests] plain")
    }
}
