import BazaarServer
import BazaarStorage
import Foundation
import ProcessSupport

/// Two `bazaar-server` replicas (real child processes) on one PostgreSQL database, signing with
/// one key, each with a client: what an operator runs behind a load balancer, in miniature.
public struct ReplicaPair: Sendable {
    /// Replica A and its client.
    public let a: BazaarProcess
    /// Replica B and its client.
    public let b: BazaarProcess
    /// A client of replica A.
    public let clientA: BazaarTestClient
    /// A client of replica B.
    public let clientB: BazaarTestClient
    /// Where each replica's standard error (warnings and errors) goes: `<dir>/a.log`, `<dir>/b.log`.
    public let logDirectory: String

    /// Both replicas' logs, for a failing test to show.
    public func logs() -> String {
        ["a", "b"].map { name in
            let text = (try? String(contentsOfFile: "\(logDirectory)/\(name).log", encoding: .utf8)) ?? ""
            return "--- replica \(name)\n\(text)"
        }.joined(separator: "\n")
    }

    /// Starts both replicas on `database` (they start at the same moment, so they also race to
    /// migrate), runs `body`, and stops them with SIGTERM.
    public static func run<Result: Sendable>(
        on database: PostgresURL, extraArguments: [String] = [], _ body: (ReplicaPair) async throws -> Result
    ) async throws -> Result {
        let key = StorageKind.sharedSigningKey.base64EncodedString()
        let url = "postgres://\(database.username)@\(database.host):\(database.port)/\(database.database)"
        let logDirectory = try BazaarTestHarness.makeTemporaryDirectory().path
        async let first = offPool {
            try BazaarProcess(
                postgresURL: url, signingKey: key, standardErrorPath: logDirectory + "/a.log",
                extraArguments: extraArguments)
        }
        async let second = offPool {
            try BazaarProcess(
                postgresURL: url, signingKey: key, standardErrorPath: logDirectory + "/b.log",
                extraArguments: extraArguments)
        }
        let (a, b) = try await (first, second)
        let pair = ReplicaPair(
            a: a, b: b, clientA: BazaarTestClient(baseURL: a.baseURL), clientB: BazaarTestClient(baseURL: b.baseURL),
            logDirectory: logDirectory)
        do {
            let result = try await body(pair)
            await pair.stop()
            return result
        } catch {
            await pair.stop()
            throw error
        }
    }

    private func stop() async {
        _ = try? await offPool { [a, b] in
            a.signalTerminate()
            b.signalTerminate()
            _ = a.waitForExit()
            _ = b.waitForExit()
        }
        try? FileManager.default.removeItem(atPath: logDirectory)
    }
}
