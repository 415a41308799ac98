import Foundation
import GRDB

/// An online backup of a Bazaar SQLite database, taken while a server serves and writes it.
///
/// The copy is SQLite's backup API (through GRDB) in one step, inside one read transaction of the
/// live file: in WAL mode that is a consistent snapshot of every committed write (photos
/// included: they are rows), and the server's writers are never blocked. The copy is written to
/// `PATH.partial`, checked (`PRAGMA integrity_check`, the migrations it has, what it holds),
/// synced, and only then renamed to `PATH`: a backup stopped anywhere, even by SIGKILL, leaves no
/// file under the name that looks complete. The signing key beside the database, when there is
/// one, goes beside the backup the same way, so sessions survive a restore.
public enum SQLiteBackup {
    /// What a backup holds.
    public struct Summary: Sendable, Equatable, CustomStringConvertible {
        /// Accounts (deleted ones are gone, not counted).
        public var users: Int
        /// Listings of every status.
        public var products: Int
        /// Conversations.
        public var conversations: Int
        /// Messages, offers' timeline lines included.
        public var messages: Int
        /// Stored photos (product, profile and chat photos, each in all its sizes).
        public var photos: Int
        /// The last migration the database has.
        public var migration: String
        /// The file's size in bytes.
        public var bytes: Int64
        /// Whether the signing key was copied beside it.
        public var signingKey: Bool

        /// `12 users, 34 products, 5 conversations, 560 messages, 78 photos (migration v11-photo-sizes, 4.2 MB)`.
        public var description: String {
            let megabytes = String(format: "%.1f", Double(bytes) / 1_000_000)
            return
                "\(users) users, \(products) products, \(conversations) conversations, \(messages) messages, \(photos) photos (migration \(migration), \(megabytes) MB\(signingKey ? ", with the signing key" : ""))"
        }
    }

    /// Why a backup or a restore was not made.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// There is no database at the path.
        case noDatabase(String)
        /// The file is not a Bazaar database, or it is damaged: what SQLite said.
        case damaged(String, reason: String)
        /// The destination exists; a restore never replaces a database.
        case destinationExists(String)

        /// A sentence for the operator.
        public var description: String {
            switch self {
            case .noDatabase(let path): "there is no database at \(path)"
            case .damaged(let path, let reason): "\(path) is not a sound Bazaar database: \(reason)"
            case .destinationExists(let path):
                "\(path) exists; move it away first (a restore never replaces a database)"
            }
        }
    }

    /// Copies the database at `source` to `destination` (replacing an older backup there), checks
    /// the copy and says what it holds.
    public static func write(from source: String, to destination: String) throws -> Summary {
        guard FileManager.default.fileExists(atPath: source) else { throw Failure.noDatabase(source) }
        let partial = destination + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let live = try DatabaseQueue(path: source, configuration: configuration)
        do {
            let copy = try DatabaseQueue(path: partial)
            try live.backup(to: copy)
            // The copy has the live file's WAL mode; one self-contained file is what a backup is
            // (a server opening it sets WAL again).
            try copy.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
            try copy.close()
        } catch {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
            throw error
        }
        try live.close()
        var summary = try verify(partial)
        summary.signingKey = try copyKey(from: source, to: destination)
        try publish(partial, as: destination)
        return summary
    }

    /// Checks the database at `path` (integrity, a Bazaar schema) and says what it holds.
    public static func verify(_ path: String) throws -> Summary {
        guard FileManager.default.fileExists(atPath: path) else { throw Failure.noDatabase(path) }
        var configuration = Configuration()
        configuration.readonly = true
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw Failure.damaged(path, reason: "\(error)")
        }
        defer { try? database.close() }
        do {
            return try database.read { db in
                let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard integrity == ["ok"] else {
                    throw Failure.damaged(path, reason: integrity.prefix(3).joined(separator: "; "))
                }
                guard try db.tableExists("grdb_migrations"), try db.tableExists("users") else {
                    throw Failure.damaged(path, reason: "it has no Bazaar tables")
                }
                func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
                return Summary(
                    users: try count("SELECT count(*) FROM users"),
                    products: try count("SELECT count(*) FROM products"),
                    conversations: try count("SELECT count(*) FROM conversations"),
                    messages: try count("SELECT count(*) FROM messages"),
                    photos: try count("SELECT count(DISTINCT photo_id) FROM photo_sizes"),
                    migration: try String.fetchOne(
                        db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid DESC LIMIT 1") ?? "none",
                    bytes: (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0,
                    signingKey: false)
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure.damaged(path, reason: "\(error)")
        }
    }

    /// Puts the backup at `backup` (checked first) in place as the database at `destination`,
    /// which must not exist, with its signing key; a server started on `destination` serves it.
    public static func restore(from backup: String, to destination: String) throws -> Summary {
        var summary = try verify(backup)
        guard !FileManager.default.fileExists(atPath: destination) else { throw Failure.destinationExists(destination) }
        let partial = destination + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        try FileManager.default.copyItem(atPath: backup, toPath: partial)
        summary.signingKey = try copyKey(from: backup, to: destination)
        try publish(partial, as: destination)
        return summary
    }

    /// Copies `<from>.signing-key` to `<to>.signing-key` (owner-only), when there is one.
    private static func copyKey(from source: String, to destination: String) throws -> Bool {
        let key = source + ".signing-key"
        guard FileManager.default.fileExists(atPath: key) else { return false }
        let partial = destination + ".signing-key.partial"
        try? FileManager.default.removeItem(atPath: partial)
        try FileManager.default.copyItem(atPath: key, toPath: partial)
        try publish(partial, as: destination + ".signing-key")
        return true
    }

    /// Makes `partial` owner-only, syncs it, and renames it to `path` (then syncs the folder), so
    /// `path` appears whole or not at all.
    private static func publish(_ partial: String, as path: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: partial)
        try sync(partial)
        guard rename(partial, path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        try sync(URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }
}
