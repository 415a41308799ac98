import BazaarAPI
import Foundation
import Networking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps a session's tokens in a file readable by its owner only (0600), written atomically.
///
/// A save writes a new file beside the old one (created 0600, flushed to disk) and renames it into
/// place, so a crash mid-write leaves either the old tokens or the new ones, never half of each.
/// Errors name the file, never its contents.
public actor FileTokenStore: TokenStore {
    /// Why the store could not do its work.
    public enum StoreError: Error, Equatable, CustomStringConvertible {
        /// The file exists but does not hold tokens.
        case unreadable(path: String)
        /// The file could not be written.
        case writeFailed(path: String, errno: Int32)

        /// A sentence for a person; it never contains tokens.
        public var description: String {
            switch self {
            case .unreadable(let path):
                "the token file \(path) is damaged; sign in again"
            case .writeFailed(let path, let code):
                "could not write the token file \(path): \(String(cString: strerror(code)))"
            }
        }
    }

    /// The file the tokens live in.
    public let url: URL

    /// Makes a store for the file at `url`; its folder is created (0700) when tokens are first saved.
    public init(url: URL) {
        self.url = url
    }

    /// The stored tokens, or `nil` when there is no file.
    public func load() throws -> AuthTokens? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let decoder = BazaarJSON.makeDecoder()
        guard let tokens = try? decoder.decode(AuthTokens.self, from: data) else {
            throw StoreError.unreadable(path: url.path)
        }
        return tokens
    }

    /// Replaces the stored tokens atomically.
    public func save(_ tokens: AuthTokens) throws {
        let encoder = BazaarJSON.makeEncoder()
        let data = try encoder.encode(tokens)
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw StoreError.writeFailed(path: url.path, errno: errno) }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0, rename(temporary.path, url.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw StoreError.writeFailed(path: url.path, errno: code)
        }
        let folderDescriptor = open(folder.path, O_RDONLY)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Deletes the file.
    public func clear() throws {
        if unlink(url.path) != 0, errno != ENOENT {
            throw StoreError.writeFailed(path: url.path, errno: errno)
        }
    }
}
