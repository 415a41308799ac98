import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files only their owner may read: the database (password hashes, messages) and the signing key.
///
/// Each is created with mode 0600 in the `open` that creates it, never created with the umask's
/// mode and narrowed afterwards, so there is no moment in which another user could open it.
public enum PrivateFile {
    /// Creates an empty file at `path` with mode 0600 unless something is there already.
    public static func createIfMissing(at path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        guard errno == EEXIST else { throw ConfigurationError("cannot create \(path): \(Self.describe(errno))") }
    }

    /// Writes `data` as a new file at `path`, mode 0600, whole or not at all: written to a
    /// temporary file beside it, flushed, then renamed into place.
    public static func write(_ data: Data, to path: String) throws {
        let temporary = path + ".\(UUID().uuidString).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ConfigurationError("cannot create \(temporary): \(Self.describe(errno))") }
        let written = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw ConfigurationError("cannot write \(path): \(Self.describe(code))")
        }
    }

    /// Throws when the file at `path` can be read or written by anyone but its owner.
    public static func requireOwnerOnly(_ path: String, what: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ConfigurationError("cannot read \(what) \(path): \(describe(errno))")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw ConfigurationError(
                "\(what) \(path) can be read by other users (mode \(String(mode, radix: 8))): run chmod 600 on it")
        }
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
