import Foundation

/// Where `bazaar web` keeps its files, under its config folder: one folder per signed-in browser
/// (`browsers/`, random names unrelated to any cookie), the shared signed-out stack's cache
/// (`visitors/`), and the outboxes of users who signed out with messages still undelivered
/// (`parked/USER`), taken back at their next sign-in on any browser.
struct WebFolders: Sendable {
    /// The config folder.
    let root: URL

    var browsers: URL { root.appendingPathComponent("browsers", isDirectory: true) }
    var visitors: URL { root.appendingPathComponent("visitors", isDirectory: true) }
    var parked: URL { root.appendingPathComponent("parked", isDirectory: true) }

    /// A new, unused folder name for one browser's account.
    func newBrowserFolder() -> URL {
        var generator = SystemRandomNumberGenerator()
        let name = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        return browsers.appendingPathComponent(name, isDirectory: true)
    }

    /// The browser folders that exist now.
    func browserFolders() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: browsers.path)) ?? []
        return names.sorted().map { browsers.appendingPathComponent($0, isDirectory: true) }
    }

    /// Removes a browser's folder. With `parkingOutboxes`, each user outbox in it is first moved
    /// to `parked/USER`; when a parked outbox of that user is there already, the folder is left
    /// as it is (nothing is overwritten) for a later run to try again.
    func retire(_ folder: URL, parkingOutboxes: Bool) throws {
        let files = FileManager.default
        let users = folder.appendingPathComponent("users", isDirectory: true)
        if parkingOutboxes, files.fileExists(atPath: users.path) {
            try files.createDirectory(
                at: parked, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for name in try files.contentsOfDirectory(atPath: users.path) {
                let destination = parked.appendingPathComponent(name, isDirectory: true)
                if files.fileExists(atPath: destination.path) { return }
                try files.moveItem(at: users.appendingPathComponent(name, isDirectory: true), to: destination)
            }
        }
        if files.fileExists(atPath: folder.path) { try files.removeItem(at: folder) }
    }

    /// Moves user `userID`'s parked outbox, if there is one, to where `environment` keeps it
    /// (unless that place is taken).
    func unpark(userID: String, into environment: AppEnvironment) throws {
        let files = FileManager.default
        let source = parked.appendingPathComponent(userID, isDirectory: true)
        let destination = environment.outboxFile(for: userID).deletingLastPathComponent()
        guard files.fileExists(atPath: source.path), !files.fileExists(atPath: destination.path) else { return }
        try files.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try files.moveItem(at: source, to: destination)
    }
}
