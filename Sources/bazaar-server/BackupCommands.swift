import ArgumentParser
import BazaarSQLite
import Foundation

/// `bazaar-server backup --to PATH`: an online backup of the SQLite database, checked.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Back up the database while the server serves, and check the copy.",
        discussion: """
            SQLite: a consistent copy of every committed write (photos included), taken while the server
            serves and writes, written to PATH.partial, checked (PRAGMA integrity_check, what it holds),
            synced and renamed to PATH, with the signing key beside it (PATH.signing-key, owner-only).
            Stopped anywhere, it leaves no file named PATH. Prints what the backup holds. A missing or
            damaged database exits 65.

            PostgreSQL: use scripts/postgres-backup.sh (pg_dump, checked by a restore into a scratch
            database); this command says so and exits 64.

            Examples:
              bazaar-server backup --sqlite bazaar.sqlite --to /backups/bazaar-2026-11-26.sqlite
            """)
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Where the backup goes (an older backup there is replaced).") var to: String

    func run() async throws {
        guard try database.postgres() == nil else {
            throw ValidationError(
                "with PostgreSQL, back up with scripts/postgres-backup.sh (pg_dump and a test restore)")
        }
        do {
            let summary = try SQLiteBackup.write(from: database.sqlite, to: to)
            print("backup of \(database.sqlite) written to \(to) and checked: \(summary)")
        } catch let failure as SQLiteBackup.Failure {
            FileHandle.standardError.write(Data("bazaar-server: \(failure)\n".utf8))
            throw ExitCode(65)
        }
    }
}

/// `bazaar-server restore --from PATH --sqlite DEST`: a checked backup put in place.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Put a backup in place as the database a server will serve.",
        discussion: """
            The backup is checked first (PRAGMA integrity_check, a Bazaar schema), then copied to the
            --sqlite path, which must not exist (a restore never replaces a database), with its signing
            key. Start the server on it afterwards; it applies any newer migrations itself. A damaged
            backup or an existing destination exits 65.

            PostgreSQL: scripts/postgres-backup.sh restore FILE URL (pg_restore).

            Examples:
              bazaar-server restore --from /backups/bazaar-2026-11-26.sqlite --sqlite bazaar.sqlite
            """)
    @OptionGroup var database: DatabaseOptions
    @Option(help: "The backup to restore.") var from: String

    func run() async throws {
        guard try database.postgres() == nil else {
            throw ValidationError("with PostgreSQL, restore with scripts/postgres-backup.sh restore FILE URL")
        }
        do {
            let summary = try SQLiteBackup.restore(from: from, to: database.sqlite)
            print("restored \(from) to \(database.sqlite): \(summary)")
        } catch let failure as SQLiteBackup.Failure {
            FileHandle.standardError.write(Data("bazaar-server: \(failure)\n".utf8))
            throw ExitCode(65)
        }
    }
}
