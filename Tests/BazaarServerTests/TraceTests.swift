import BazaarAPI
import BazaarStorage
import Foundation
import TestSupport
import Testing

/// Traces, end to end: the `bazaar` app and a `bazaar-server` replica on PostgreSQL, each a real
/// process exporting over OTLP/HTTP to a collector on loopback, make one trace of one request.
@Suite(
    "Traces over OTLP", .serialized, .timeLimit(.minutes(3)),
    .enabled(if: PostgresTestDatabase.isAvailable, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct TraceTests {
    /// The spans of `trace` that descend from `ancestor`.
    static func descendants(of ancestor: OTLPReceiver.Span, in spans: [OTLPReceiver.Span]) -> [OTLPReceiver.Span] {
        var found: [OTLPReceiver.Span] = []
        var frontier: Set<String> = [ancestor.spanID]
        while !frontier.isEmpty {
            let children = spans.filter { $0.traceID == ancestor.traceID && frontier.contains($0.parentSpanID) }
            found += children
            frontier = Set(children.map(\.spanID))
        }
        return found
    }

    @Test(
        "bazaar product show through a replica on PostgreSQL is one trace: the app's client span, the server's span under it, the database spans under that"
    )
    func oneTraceFromTheAppThroughAReplicaIntoPostgreSQL() async throws {
        try await PostgresTestDatabase.with { database in
            try await OTLPReceiver.with { receiver, collector in
                let folder = try BazaarTestHarness.makeTemporaryDirectory()
                defer { try? FileManager.default.removeItem(at: folder) }
                let json = ["OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"]
                let url = "postgres://\(database.username)@\(database.host):\(database.port)/\(database.database)"
                let server = try await offPool {
                    try BazaarProcess(
                        postgresURL: url, signingKey: StorageKind.sharedSigningKey.base64EncodedString(),
                        standardErrorPath: folder.appendingPathComponent("server.log").path, environment: json,
                        extraArguments: ["--otel-endpoint", collector.absoluteString, "--replica-name", "replica-a"])
                }
                defer { _ = server.terminate() }
                let client = BazaarTestClient(baseURL: server.baseURL)
                let seller = try await client.register("tracy")
                let product = try await client.createProduct("Traced lamp", token: seller.tokens.accessToken)

                let shown = try await BazaarCLI().run(
                    [
                        "product", "show", product.id, "--server", server.baseURL.absoluteString, "--config-dir",
                        folder.appendingPathComponent("app").path,
                    ],
                    environment: json.merging(["OTEL_EXPORTER_OTLP_ENDPOINT": collector.absoluteString]) { $1 })
                #expect(shown.exitCode == 0, "\(shown.stderr)")
                #expect(shown.stdout.contains("Traced lamp"))
                // SIGTERM: the server drains and its exporter sends what it holds before exiting.
                #expect(server.terminate() == 0)

                let spans = await receiver.spans(within: .seconds(10)) { spans in
                    spans.contains { $0.service == "bazaar-server" && $0.name == "/v1/products/{id}" }
                }
                let request = try #require(
                    spans.first {
                        $0.service == "bazaar" && $0.kind == OTLPReceiver.Span.client
                            && $0.attributes["url.full"]?.hasSuffix("/v1/products/\(product.id)") == true
                    }, "the app's client span; received: \(spans)")
                #expect(request.name == "GET")
                #expect(request.attributes["http.response.status_code"] == "200")
                let served = try #require(
                    spans.first { $0.service == "bazaar-server" && $0.parentSpanID == request.spanID },
                    "the server's span is the child of the app's; received: \(spans)")
                #expect(served.traceID == request.traceID)
                #expect(served.kind == OTLPReceiver.Span.server)
                #expect(served.name == "/v1/products/{id}", "named by the route template, not the path")
                #expect(served.attributes["http.response.status_code"] == "200")
                let statements = Self.descendants(of: served, in: spans).filter {
                    $0.attributes["db.system.name"] == "postgresql"
                }
                #expect(!statements.isEmpty, "database spans under the server's; received: \(spans)")
                #expect(statements.allSatisfy { $0.kind == OTLPReceiver.Span.client })
                #expect(
                    statements.contains {
                        $0.name == "SELECT" && $0.attributes["db.query.text"]?.contains("products") == true
                            && $0.attributes["db.namespace"] == database.database
                    })
                #expect(
                    statements.allSatisfy { $0.attributes["db.query.text"]?.contains(product.id) != true },
                    "values travel as bind parameters, never in the recorded text")
                #expect(
                    spans.filter { $0.service == "bazaar-server" }.isEmpty == false
                        && receiver.exports.allSatisfy { $0.hasPrefix("application/json") })
            }
        }
    }

    @Test("without an endpoint nothing is exported; a bad endpoint is a one-line error and exit 64")
    func offByDefaultAndCheckedWhenOn() async throws {
        try await OTLPReceiver.with { receiver, collector in
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let server = try await offPool {
                try BazaarProcess(sqlitePath: folder.appendingPathComponent("bazaar.sqlite").path)
            }
            let client = BazaarTestClient(baseURL: server.baseURL)
            #expect(try await client.get(APIRoutes.products.template).status == 200)
            let shown = try await BazaarCLI().run(
                ["products", "--server", server.baseURL.absoluteString, "--config-dir", folder.path + "/app"])
            #expect(shown.exitCode == 0, "\(shown.stderr)")
            // A collector that is down costs a command its bounded flush (two seconds), not the
            // exporter's retries (eleven seconds before the bound), and the command still succeeds.
            let started = ContinuousClock.now
            let unreachable = try await BazaarCLI().run(
                ["products", "--server", server.baseURL.absoluteString, "--config-dir", folder.path + "/app"],
                environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": RefusedAddress.url.absoluteString])
            #expect(unreachable.exitCode == 0, "\(unreachable.stderr)")
            #expect(ContinuousClock.now - started < .seconds(8))
            #expect(server.terminate() == 0)
            #expect(receiver.exports.isEmpty, "nothing is sent to a collector nobody named")

            let refused = try await BazaarCLI(executable: "bazaar-server").run(
                ["--sqlite", folder.path + "/other.sqlite", "--otel-endpoint", "ftp://collector:4318"])
            #expect(refused.exitCode == 64)
            #expect(refused.stderr.contains("--otel-endpoint") && refused.stderr.contains("ftp://collector:4318"))
            let app = try await BazaarCLI().run(
                ["products", "--server", "http://127.0.0.1:1", "--config-dir", folder.path + "/app"],
                environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"])
            #expect(app.exitCode == 64, "\(app.stderr)")
            #expect(app.stderr.contains("collector:4318"))
            _ = collector
        }
    }
}
