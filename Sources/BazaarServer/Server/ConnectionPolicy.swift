/// Limits that keep clients from holding a server's connections without using them: how long a
/// connection may wait between requests or take to send a request head, how many connections one
/// client address may hold at once, and how event WebSockets that go quiet or stop reading end.
public struct ConnectionPolicy: Sendable, Equatable {
    /// How long a client may take to send a whole request head, from its first byte (or from the
    /// end of the previous answer, when bytes of the next request are already waiting). Past it the
    /// connection is answered `408` and closed: the slow-loris defence.
    public var headerTimeout: Duration
    /// How long a request body may take from the end of its head, before credit: each
    /// ``bodyMinimumRate`` bytes that arrive add a second. An upload that keeps moving at that rate
    /// is never cut however long it takes; a client dripping a body is answered `408` and closed.
    public var bodyTimeout: Duration
    /// The body rate, in bytes per second, that earns a second of ``bodyTimeout`` credit.
    public var bodyMinimumRate: Int
    /// How long a connection may sit between requests (a kept-alive connection, or one that has sent
    /// nothing yet) before it is closed quietly.
    public var idleTimeout: Duration
    /// The most connections one client address may hold open at once; the next is answered `429`
    /// and closed. `nil` means no cap (set it so behind a proxy, which holds every connection from
    /// one address; the proxy should limit per client).
    public var maxConnectionsPerAddress: Int?
    /// How often an event WebSocket is pinged; one that has not answered the last ping with a pong
    /// by the next is closed (`1001`).
    public var webSocketPingInterval: Duration
    /// How many events may wait for one event WebSocket whose client does not read; one more and
    /// the socket is cut (the client catches up when it reconnects).
    public var webSocketBacklog: Int
    /// The largest WebSocket frame a client may send; a larger one closes the socket with `1009`.
    public var webSocketMaxFrameSize: Int
    /// How often the server looks for event WebSockets whose access token has expired, and
    /// closes them with `1008`: a socket outlives its token by at most this.
    public var webSocketExpiryCheckInterval: Duration = .seconds(1)

    /// Makes a policy; the defaults suit a public server (nginx uses 60 s and 75 s).
    public init(
        headerTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(75),
        maxConnectionsPerAddress: Int? = 256,
        webSocketPingInterval: Duration = .seconds(30), webSocketBacklog: Int = 256,
        webSocketMaxFrameSize: Int = 16 << 10,
        bodyTimeout: Duration = .seconds(20), bodyMinimumRate: Int = 4096
    ) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.bodyMinimumRate = bodyMinimumRate
        self.idleTimeout = idleTimeout
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.webSocketPingInterval = webSocketPingInterval
        self.webSocketBacklog = webSocketBacklog
        self.webSocketMaxFrameSize = webSocketMaxFrameSize
    }
}
