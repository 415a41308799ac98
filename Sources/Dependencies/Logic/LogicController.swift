/// The one shape of every screen's logic (seed 002's logic controller): actions in, states out.
///
/// A renderer sends the person's actions and draws the states; it holds no logic of its own. Every
/// state the logic moves to (the answer to an action, a live event, an outbox delivery, upload
/// progress) goes to ``states()``; ``send(_:)`` also returns the state its action led to, so a
/// one-shot caller (a command line, a test) needs no stream.
public protocol LogicController<Action, State>: Sendable {
    /// What the person can do on the screen.
    associatedtype Action: Sendable
    /// What the screen shows.
    associatedtype State: Sendable & Equatable

    /// Performs `action`, publishes every state it passes through, and returns the last one.
    @discardableResult
    func send(_ action: Action) async -> State

    /// The screen's states from now on, starting with the current one. While someone iterates it,
    /// the screen counts as open (chat marks incoming messages read and listens for live events).
    /// Ends when the caller stops iterating.
    func states() async -> AsyncStream<State>
}

extension LogicController {
    /// The seeds' form of ``send(_:)``: `handler` gets the state the action led to.
    @discardableResult
    public func send(_ action: Action, then handler: @escaping StateHandler<State>) -> Task<Void, Never> {
        Task { handler(await send(action)) }
    }
}
