import ArgumentParser
import BazaarServer
import BazaarStorage
import Foundation

/// The database flags every `bazaar-server` command takes, so the operator's commands act on the
/// very database the server serves.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("sqlite"), help: "The SQLite database file (default bazaar.sqlite).")
    var sqlitePath: String?

    @Option(
        name: .customLong("postgres"),
        help:
            "A PostgreSQL URL (postgres://user:password@host:5432/database) shared by every replica; also BAZAAR_DATABASE_URL."
    )
    var postgresURL: String?

    func validate() throws {
        guard postgresURL == nil || sqlitePath == nil else {
            throw ValidationError("choose one database: --sqlite or --postgres")
        }
    }

    /// The SQLite file (when no PostgreSQL URL is given).
    var sqlite: String { sqlitePath ?? "bazaar.sqlite" }

    /// The PostgreSQL database: `--postgres`, else `BAZAAR_DATABASE_URL` unless `--sqlite` was given.
    func postgres() throws -> PostgresURL? {
        let environment = ProcessInfo.processInfo.environment
        guard let text = postgresURL ?? (sqlitePath == nil ? environment["BAZAAR_DATABASE_URL"] : nil), !text.isEmpty
        else { return nil }
        return try PostgresURL(text)
    }
}
