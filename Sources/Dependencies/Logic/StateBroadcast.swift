import Synchronization

/// The current state of a screen and everyone watching it: each published state goes to every
/// subscriber, and a new subscriber starts with the current one.
///
/// Logic controllers own one and publish through it; it is thread-safe (its storage sits behind a
/// `Mutex`), so an actor can publish from any of its methods without awaiting. Work given to
/// ``whileWatched(_:)`` (following live events, say) runs exactly while at least one stream is
/// being iterated: it starts with the first subscriber and is cancelled when the last one leaves.
public final class StateBroadcast<State: Sendable>: Sendable {
    private struct Storage {
        var current: State
        var subscribers: [Int: AsyncStream<State>.Continuation] = [:]
        var nextID = 0
        var watchWork: (@Sendable () async -> Void)?
        var watchTask: Task<Void, Never>?
    }

    private let storage: Mutex<Storage>

    /// Starts at `initial`.
    public init(_ initial: State) {
        storage = Mutex(Storage(current: initial))
    }

    /// Runs `work` whenever the screen is watched: from the first subscriber until the last one
    /// leaves (then the task is cancelled), again on the next first subscriber.
    public func whileWatched(_ work: @escaping @Sendable () async -> Void) {
        storage.withLock { storage in
            storage.watchWork = work
            if !storage.subscribers.isEmpty, storage.watchTask == nil { storage.watchTask = Task { await work() } }
        }
    }

    /// The state last published.
    public var current: State { storage.withLock { $0.current } }

    /// How many streams are being iterated.
    public var subscriberCount: Int { storage.withLock { $0.subscribers.count } }

    /// Makes `state` current and hands it to every subscriber; returns it.
    @discardableResult
    public func publish(_ state: State) -> State {
        let subscribers = storage.withLock { storage in
            storage.current = state
            return Array(storage.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(state) }
        return state
    }

    /// A stream of states: the current one first, then each one published, until the caller stops.
    ///
    /// - Parameter owner: kept alive for as long as the stream is (the logic controller, so a
    ///   renderer that holds only the stream still has a screen following the world behind it).
    public func subscribe(keeping owner: (any AnyObject & Sendable)? = nil) -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: .bufferingNewest(64))
        storage.withLock { storage in
            let id = storage.nextID
            storage.nextID += 1
            storage.subscribers[id] = continuation
            continuation.onTermination = { [weak self, owner] _ in
                withExtendedLifetime(owner) { self?.remove(id) }
            }
            continuation.yield(storage.current)
            if storage.watchTask == nil, let work = storage.watchWork { storage.watchTask = Task { await work() } }
        }
        return stream
    }

    /// Ends every subscriber's stream.
    public func finish() {
        let (subscribers, task) = storage.withLock { storage in
            defer {
                storage.subscribers = [:]
                storage.watchTask = nil
            }
            return (Array(storage.subscribers.values), storage.watchTask)
        }
        task?.cancel()
        for subscriber in subscribers { subscriber.finish() }
    }

    private func remove(_ id: Int) {
        let task: Task<Void, Never>? = storage.withLock { storage in
            storage.subscribers[id] = nil
            guard storage.subscribers.isEmpty else { return nil }
            defer { storage.watchTask = nil }
            return storage.watchTask
        }
        task?.cancel()
    }
}
