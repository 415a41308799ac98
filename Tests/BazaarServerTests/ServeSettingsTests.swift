import Foundation
import TestSupport
import Testing

/// `bazaar-server`'s settings from the command line, `BAZAAR_*` variables and a JSON file, in that
/// order of precedence, shown by `--print-config` with secrets redacted; run as the built binary.
@Suite("Server settings from the environment and a file", .timeLimit(.minutes(2)))
struct ServeSettingsTests {
    @Test(
        "the command line wins over the environment, which wins over the file; --print-config says where each came from and hides the password"
    )
    func precedenceAndPrintConfig() async throws {
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bazaar.json")
        try Data(
            #"{"bazaar": {"port": 9123, "bcryptCost": 5, "drainDelay": 3, "seedDemo": true, "postgres": "postgres://bazaar:hunter2@db:5432/bazaar"}}"#
                .utf8
        ).write(to: file)
        let outcome = try await BazaarCLI(executable: "bazaar-server").run(
            ["--config", file.path, "--bcrypt-cost", "6", "--print-config"],
            environment: ["BAZAAR_PORT": "9200", "BAZAAR_BCRYPT_COST": "7", "BAZAAR_LOG_FORMAT": "json"])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let lines = Set(outcome.stdout.split(separator: "\n").map(String.init))
        #expect(lines.contains("port = 9200  (environment BAZAAR_PORT)"), "the environment over the file")
        #expect(lines.contains("bcrypt-cost = 6  (command line)"), "the command line over both")
        #expect(lines.contains("drain-delay = 3  (file \(file.path))"), "the file when nothing else says")
        #expect(lines.contains("seed-demo = true  (file \(file.path))"))
        #expect(lines.contains("log-format = json  (environment BAZAAR_LOG_FORMAT)"))
        #expect(lines.contains("host = 127.0.0.1  (default)"))
        #expect(lines.contains("postgres = postgres://bazaar:***@db:5432/bazaar  (file \(file.path))"))
        #expect(!outcome.stdout.contains("hunter2"), "the password is never printed")
        #expect(lines.contains { $0.hasPrefix("traces = off") })
    }

    @Test("--print-config says where traces go: --otel-endpoint (from wherever) over OTEL_EXPORTER_OTLP_ENDPOINT")
    func printConfigNamesTheTraceEndpoint() async throws {
        let cli = BazaarCLI(executable: "bazaar-server")
        let standard = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"]
        let fromStandard = try await cli.run(["--print-config"], environment: standard)
        #expect(
            fromStandard.stdout.contains(
                "traces = OTLP/HTTP to http://collector:4318  (environment OTEL_EXPORTER_OTLP_ENDPOINT)"))
        let flagged = try await cli.run(
            ["--print-config"], environment: standard.merging(["BAZAAR_OTEL_ENDPOINT": "http://mine:4318"]) { $1 })
        #expect(flagged.stdout.contains("traces = OTLP/HTTP to http://mine:4318  (environment BAZAAR_OTEL_ENDPOINT)"))
        let disabled = try await cli.run(
            ["--print-config", "--otel-endpoint", "http://mine:4318"],
            environment: ["OTEL_SDK_DISABLED": "true"])
        #expect(disabled.stdout.contains("traces = off  (environment OTEL_SDK_DISABLED)"))
    }

    @Test("a bad value from the environment or the file is refused as on the command line; an unreadable file exits 64")
    func badSettingsAreRefused() async throws {
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = BazaarCLI(executable: "bazaar-server")
        let badPort = try await cli.run(["--print-config"], environment: ["BAZAAR_PORT": "70000"])
        #expect(badPort.exitCode == 64)
        #expect(badPort.stderr.contains("--port must be 0-65535"), "\(badPort.stderr)")
        let missing = try await cli.run(["--config", folder.appendingPathComponent("nope.json").path, "--print-config"])
        #expect(missing.exitCode == 64)
        #expect(missing.stderr.contains("cannot read the configuration"), "\(missing.stderr)")
        let broken = folder.appendingPathComponent("broken.json")
        try Data("{not json".utf8).write(to: broken)
        let unparsable = try await cli.run(["--print-config"], environment: ["BAZAAR_CONFIG": broken.path])
        #expect(unparsable.exitCode == 64, "\(unparsable.stderr)")
    }
}
