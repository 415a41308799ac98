import BazaarServer
import BazaarStorage
import Foundation
import ProcessSupport

/// A PostgreSQL cluster of a test's own (through `scripts/postgres-cluster.sh`), for tests that
/// stop and start the database: the shared test server must stay up for every other test.
public final class PostgresCluster: Sendable {
    /// The cluster's folder (beside the throwaway cluster's, /dev/shm or /tmp, so the `postgres` user
    /// can enter it when run as root).
    public let directory: String
    /// `postgres://postgres@127.0.0.1:PORT/postgres`.
    public let url: PostgresURL
    private let script: String

    /// Errors of the helper.
    public enum ClusterError: Error, CustomStringConvertible {
        /// `BAZAAR_TEST_POSTGRES_CLUSTER` is not set (run through scripts/with-postgres.sh).
        case scriptNotConfigured
        /// The script failed.
        case scriptFailed(String, Int32)

        public var description: String {
            switch self {
            case .scriptNotConfigured: "BAZAAR_TEST_POSTGRES_CLUSTER is not set: run through scripts/with-postgres.sh"
            case .scriptFailed(let command, let status): "postgres-cluster.sh \(command) exited with \(status)"
            }
        }
    }

    /// Creates and starts a new cluster on a free port.
    public static func make() async throws -> PostgresCluster {
        guard let script = ProcessInfo.processInfo.environment["BAZAAR_TEST_POSTGRES_CLUSTER"] else {
            throw ClusterError.scriptNotConfigured
        }
        let parent = ProcessInfo.processInfo.environment["BAZAAR_TEST_POSTGRES_PARENT"] ?? "/tmp"
        let directory = "\(parent)/bazaar-fault-\(UUID().uuidString.prefix(8))"
        try await run(script, ["init", directory, "auto"])
        let port = try String(contentsOfFile: directory + "/port", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        return PostgresCluster(
            directory: directory, url: try PostgresURL("postgres://postgres@127.0.0.1:\(port)/postgres"), script: script
        )
    }

    private init(directory: String, url: PostgresURL, script: String) {
        self.directory = directory
        self.url = url
        self.script = script
    }

    /// Stops the server at once (`pg_ctl stop -m immediate`): a crash, as far as clients can tell.
    public func stopImmediately() async throws {
        try await Self.run(script, ["stop", directory])
    }

    /// Starts the stopped server again on the same port.
    public func start() async throws {
        try await Self.run(script, ["start", directory])
    }

    /// Stops the server if it runs and removes its folder.
    public func destroy() async {
        try? await Self.run(script, ["destroy", directory])
    }

    private static func run(_ script: String, _ arguments: [String]) async throws {
        try await offPool {
            // Standard error stays this process's (the script's complaints reach the test log).
            let process = try ChildProcess(
                executable: script, arguments: arguments, addingToEnvironment: [:],
                standardError: .inherit)
            let status = process.waitUntilExit()
            guard status == 0 else { throw ClusterError.scriptFailed(arguments.first ?? "", status) }
        }
    }
}
