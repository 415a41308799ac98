import Logging
import Synchronization
import Testing

@testable import BazaarServer

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
        lazy[metadataKey: "replica"] = "r1"
        stream[metadataKey: "replica"] = "r1"
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
                == " info bazaar-test: replica=r1 user.id=u1 [BazaarServerTests] plain")
    }

    @Test("a line written while a request is served has its request_id, and not Hummingbird's hb.request.id")
    func requestIDFromTheTask() async {
        let lines = Lines()
        let base = Logger(label: "bazaar-test") {
            LazyMetadataLogHandler(stream: StreamLogHandler(label: $0, stream: lines, metadataProvider: nil))
        }
        var perRequest = RequestLogMetadata.installed(on: base)
        perRequest[metadataKey: "hb.request.id"] = "0000000000000001"
        let logger = perRequest
        #expect(logger[metadataKey: "hb.request.id"] == "0000000000000001", "kept for Hummingbird's context.id")
        logger.info("outside")
        await RequestLogMetadata.$requestID.withValue("trace-from-proxy.42") {
            logger.info("inside")
            // A child task of the request writes its lines with the id too.
            await Task { logger.info("child") }.value
        }
        #expect(
            lines.withoutTimestamps == [
                " info bazaar-test: [BazaarServerTests] outside",
                " info bazaar-test: request_id=trace-from-proxy.42 [BazaarServerTests] inside",
                " info bazaar-test: request_id=trace-from-proxy.42 [BazaarServerTests] child",
            ])
    }

    @Test("a handler's metadata reads back whole, Hummingbird's id included, which lines leave out")
    func metadataRoundTrips() {
        let lines = Lines()
        var handler = LazyMetadataLogHandler(stream: StreamLogHandler(label: "t", stream: lines, metadataProvider: nil))
        handler.metadata = ["replica": "r1", "hb.request.id": "0000000000000002"]
        #expect(handler.metadata == ["replica": "r1", "hb.request.id": "0000000000000002"])
        #expect(handler[metadataKey: "hb.request.id"] == "0000000000000002")
        handler[metadataKey: "hb.request.id"] = nil
        #expect(handler.metadata == ["replica": "r1"])
        var json = JSONLogHandler(label: "t") { _ in }
        json.metadata = ["hb.request.id": "0000000000000003"]
        #expect(json[metadataKey: "hb.request.id"] == "0000000000000003" && json.metadata.count == 1)
    }
}
