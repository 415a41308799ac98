/// What every malformed-input case may use: the server's port and a signed-in user's access
/// token and conversation.
struct CaseContext: Sendable {
    /// The server's port on 127.0.0.1.
    let port: Int
    /// A valid access token.
    let token: String
    /// A conversation the token's user is a member of.
    let conversationID: String
    /// The server's `--header-timeout`.
    let headerTimeout: Duration
    /// The server's `--body-timeout`.
    let bodyTimeout: Duration
    /// The server's `--idle-timeout`.
    let idleTimeout: Duration
    /// The server's `--max-connections-per-address`.
    let connectionCap: Int
    /// The server's `--websocket-ping-interval`.
    let webSocketPingInterval: Duration
    /// The server process, to read its memory.
    let serverPID: Int32
}
