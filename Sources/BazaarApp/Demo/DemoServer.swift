import Foundation

/// A Bazaar server the demo walks against, as the app sees one: an address, and a way to stop
/// it (the demo stops it to show the outbox holding a message).
package protocol DemoServer: Sendable {
    /// Where it listens.
    var baseURL: URL { get }
    /// The port it listens on.
    var port: Int { get }
    /// Stops it; requests fail until a new one starts.
    func stop() async
}

/// Starts demo servers: on a SQLite file with demo data, on a port (0 for a free one). The
/// composition that runs the demo (`bazaar-demo`) provides it, so the app never links a server.
package protocol DemoServerFactory: Sendable {
    /// A server on the file at `database` (seeded with demo data when new), listening on `port`.
    func start(database: String, port: Int) async throws -> any DemoServer
    /// Names `username` a moderator in the database at `database`, as the operator does with
    /// `bazaar-server moderators add`, beside the server serving it.
    func nameModerator(_ username: String, database: String) async throws
}
