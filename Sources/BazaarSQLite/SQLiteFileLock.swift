import BazaarStorage
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Holds a SQLite file for one `bazaar-server` process: an exclusive `flock` on a file beside it
/// (`<database>-lock`), taken before the server opens the database and let go when this value is
/// gone or the process dies (`kill -9` included).
///
/// ``SQLiteStore`` relies on being the only writer of its file (its ``ActiveSessionMemo`` hears of
/// every revocation because it makes them), so a second server on the same file must not start.
/// The lock is on a file of its own, never on the database: closing any descriptor of the
/// database would drop the POSIX locks SQLite holds on it. The executable takes it; a process
/// that embeds the server (`bazaar-demo`, tests restarting a server on its file) owns its files.
public final class SQLiteFileLock: Sendable {
    /// Why the lock could not be taken.
    public enum LockError: Error, CustomStringConvertible, Equatable {
        /// Another store (in this process or another) holds the file.
        case inUse(database: String)
        /// The lock file could not be opened.
        case cannotOpen(path: String, reason: String)

        /// In words, for the one line a server prints when it cannot start.
        public var description: String {
            switch self {
            case .inUse(let database):
                "\(database) is in use by another bazaar-server (one server process per SQLite file; use PostgreSQL for replicas)"
            case .cannotOpen(let path, let reason):
                "cannot open the lock file \(path): \(reason)"
            }
        }
    }

    /// The lock file's descriptor, open for as long as this value lives.
    private let descriptor: Int32

    /// Takes the lock for `databasePath`, or throws at once when someone holds it.
    public init(databasePath: String) throws(LockError) {
        let path = databasePath + "-lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { throw .inUse(database: databasePath) }
            throw .cannotOpen(path: path, reason: String(cString: strerror(code)))
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
