import BazaarAPI

/// What the live connection reports to its subscribers.
public enum LiveConnectionEvent: Sendable, Equatable {
    /// The socket is open (again), or a new subscriber joined an open socket: anything missed
    /// before must be fetched.
    case connected
    /// An event for the signed-in user.
    case event(LiveEvent)
    /// The socket closed; it reconnects by itself after a backoff.
    case disconnected
}

/// The signed-in user's live events, as any feature may watch them. One socket per signed-in
/// user (the `LiveEvents` core service's `LiveEventsConnection`) is shared by every feature:
/// chat screens, conversation lists and notifications fold its events into their states.
public protocol LiveEventSource: Sendable {
    /// A stream of connection events from now on, starting with `.connected` when the socket is
    /// already open; ends when the caller stops iterating.
    func subscribe() async -> AsyncStream<LiveConnectionEvent>
    /// Closes the socket and ends every subscription (at sign-out, or when the app stops).
    func stop() async
}
