import Foundation

/// The signed-in user's outbox as the app drives it: what it holds, and when it delivers. The
/// chat module's durable `Outbox` is the implementation; commands and renderers reach it only
/// through this protocol, so none of them imports `Chat`.
public protocol OutboxControlling: Sendable {
    /// Every entry, oldest first.
    func entries() async throws -> [OutboxEntry]
    /// Delivers what is queued now, in order; returns whether everything queued was settled
    /// (sent or failed) rather than blocked by a temporary failure.
    func flush() async -> Bool
    /// Starts delivering in the background (retrying with backoff) until ``stop()``.
    func start() async
    /// Stops background delivery; entries stay on disk.
    func stop() async
    /// Waits until the entry is sent or failed and returns it in that state (an id the outbox
    /// never held comes back at once as failed).
    func delivery(of id: String) async -> OutboxEntry
    /// The last failure of the outbox file, if any (nothing is lost while the app runs).
    var storageFailure: OutboxStorageFailure? { get async }
}

/// The outbox file refused a read or a write. Nothing is lost while the app runs (states are kept
/// in memory and written again), but a state not yet written would be redone after a restart.
public struct OutboxStorageFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed and what the file said.
    public var reason: String

    /// A failure saying `reason` ("could not be written: disk full", say).
    public init(reason: String) {
        self.reason = reason
    }

    /// A sentence for a person.
    public var description: String { "The outbox file \(reason)." }
}
