import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// A small OpenTelemetry collector for tests: serves `POST /v1/traces` on loopback, as a real
/// collector's OTLP/HTTP receiver does, and keeps every span it is sent.
///
/// It reads OTLP/JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`); a protobuf export is counted in
/// ``exports`` by its content type but its spans are not read. Ids are kept as the exporter wrote
/// them, so they compare with each other, not with a `traceparent` header.
public final class OTLPReceiver: Sendable {
    /// One span as the collector received it.
    public struct Span: Sendable, CustomStringConvertible {
        /// The exporting process's `service.name`.
        public let service: String
        /// The trace it belongs to.
        public let traceID: String
        /// Its own id.
        public let spanID: String
        /// Its parent's id, empty for a root span.
        public let parentSpanID: String
        /// Its name (`GET`, `/v1/products/{id}`, `SELECT`).
        public let name: String
        /// OTLP's span kind: 1 internal, 2 server, 3 client.
        public let kind: Int
        /// Its attributes, each value as text.
        public let attributes: [String: String]

        /// OTLP's number for a server span.
        public static let server = 2
        /// OTLP's number for a client span.
        public static let client = 3

        public var description: String { "\(service) \(name) kind \(kind) \(spanID) ← \(parentSpanID)" }
    }

    private let received = Mutex<[Span]>([])
    private let contentTypes = Mutex<[String]>([])

    private init() {}

    /// Every span received so far.
    public var spans: [Span] { received.withLock { $0 } }

    /// The content type of every export received so far, in order.
    public var exports: [String] { contentTypes.withLock { $0 } }

    /// Runs a receiver for the length of `body`, which gets it and the endpoint to give exporters
    /// (`http://127.0.0.1:PORT`, the base URL `/v1/traces` is added to).
    public static func with<Result: Sendable>(_ body: (OTLPReceiver, URL) async throws -> Result) async throws
        -> Result
    {
        let receiver = OTLPReceiver()
        let router = Router()
        router.post("/v1/traces") { request, context -> Response in
            let bytes = try await request.body.collect(upTo: 32 << 20)
            receiver.receive(Data(bytes.readableBytesView), contentType: request.headers[.contentType] ?? "")
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
        }
        return try await TestServer.withRouter(router) { url in try await body(receiver, url) }
    }

    /// Waits (up to `timeout`) until the spans received satisfy `done`, and returns them all.
    public func spans(within timeout: Duration, until done: @escaping @Sendable ([Span]) -> Bool) async -> [Span] {
        await within(timeout, else: spans) { [self] in
            while !done(spans), !Task.isCancelled { try? await Task.sleep(for: .milliseconds(50)) }
            return spans
        }
    }

    private func receive(_ body: Data, contentType: String) {
        contentTypes.withLock { $0.append(contentType) }
        guard contentType.hasPrefix("application/json"),
            let export = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        else { return }
        var spans: [Span] = []
        for resourceSpans in export["resourceSpans"] as? [[String: Any]] ?? [] {
            let resource = Self.attributes((resourceSpans["resource"] as? [String: Any])?["attributes"])
            for scopeSpans in resourceSpans["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scopeSpans["spans"] as? [[String: Any]] ?? [] {
                    spans.append(
                        Span(
                            service: resource["service.name"] ?? "", traceID: span["traceId"] as? String ?? "",
                            spanID: span["spanId"] as? String ?? "",
                            parentSpanID: span["parentSpanId"] as? String ?? "",
                            name: span["name"] as? String ?? "", kind: span["kind"] as? Int ?? 0,
                            attributes: Self.attributes(span["attributes"])))
                }
            }
        }
        received.withLock { $0.append(contentsOf: spans) }
    }

    /// OTLP/JSON's `[{"key": k, "value": {"stringValue": v}}]` as `[k: v]`, every value as text.
    private static func attributes(_ list: Any?) -> [String: String] {
        var attributes: [String: String] = [:]
        for entry in list as? [[String: Any]] ?? [] {
            guard let key = entry["key"] as? String, let value = entry["value"] as? [String: Any],
                let first = value.values.first
            else { continue }
            attributes[key] = "\(first)"
        }
        return attributes
    }
}
