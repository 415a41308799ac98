import BazaarServer
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

    /// Starts both replicas on `database` (they start at the same moment, so they also race to
    /// migrate), runs `body`, and stops them with SIGTERM.
    public static func run<Result: Sendable>(
        on database: PostgresURL, extraArguments: [String] = [], _ body: (ReplicaPair) async throws -> Result
    ) async throws -> Result {
        let key = StorageKind.sharedSigningKey.base64EncodedString()
        let url = "postgres://\(database.username)@\(database.host):\(database.port)/\(database.database)"
        async let first = offPool { try BazaarProcess(postgresURL: url, signingKey: key, extraArguments: extraArguments) }
        async let second = offPool { try BazaarProcess(postgresURL: url, signingKey: key, extraArguments: extraArguments) }
        let (a, b) = try await (first, second)
        let pair = ReplicaPair(a: a, b: b, clientA: BazaarTestClient(baseURL: a.baseURL), clientB: BazaarTestClient(baseURL: b.baseURL))
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
    }
}
