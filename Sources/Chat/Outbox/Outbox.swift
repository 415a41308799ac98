import BazaarAPI
import Dependencies
import Foundation
import Networking

/// The durable outbox: messages are written to SQLite first, then delivered in order, exactly once,
/// whenever the server can be reached.
///
/// - A network error, a 429 or a 5xx is temporary: the message stays queued, the queue waits (with
///   exponential backoff, or at once when ``nudge()`` says a request just succeeded) and tries again.
/// - A 4xx such as 404 or 422 is permanent: the message is marked failed with the server's reason,
///   and the queue goes on with the next one.
/// - Every attempt of one message carries the same `Idempotency-Key` (the entry's id), so a message
///   caught mid-send by a crash is re-sent on the next start and the server keeps one copy.
///
/// States are observable through ``updates()``; ``delivery(of:)`` waits for one message's outcome.
public actor Outbox {
    /// The result of one pass over the queue.
    enum Pass {
        case drained
        case blocked
    }

    private let store: OutboxStore
    private let deliverer: any OutboxDeliverer
    private let backoff: RetryPolicy
    private var worker: Task<Void, Never>?
    private var wakeUp: CheckedContinuation<Void, Never>?
    private var wakePending = false
    private var blockedPasses = 0
    private var observers: [UUID: AsyncStream<OutboxEntry>.Continuation] = [:]
    private var waiters: [String: [CheckedContinuation<OutboxEntry, Never>]] = [:]

    /// Opens the outbox file at `path` (creating it), delivering through `deliverer`.
    ///
    /// - Parameter backoff: how long the queue waits after a temporary failure (`baseDelay`
    ///   doubling up to `maxDelay`; its attempt and total limits are not used: the outbox never gives up).
    public init(path: String, deliverer: any OutboxDeliverer, backoff: RetryPolicy = RetryPolicy(
        baseDelay: .milliseconds(500), maxDelay: .seconds(30))) throws
    {
        store = try OutboxStore(path: path)
        self.deliverer = deliverer
        self.backoff = backoff
    }

    /// Writes `body` for `recipient` to disk and wakes the delivery worker; returns the queued entry.
    public func enqueue(_ body: String, to recipient: OutboxRecipient) throws -> OutboxEntry {
        let entry = OutboxEntry(
            id: UUID().uuidString.lowercased(), recipient: recipient, body: body, state: .queued, attempts: 0,
            createdAt: Date())
        try store.insert(entry)
        publish(entry)
        nudge()
        return entry
    }

    /// Every entry, oldest first, in its current state.
    public func entries() throws -> [OutboxEntry] {
        try store.all().map(\.entry)
    }

    /// Starts delivering in the background until ``stop()``.
    public func start() {
        guard worker == nil else { return }
        worker = Task { await self.run() }
    }

    /// Stops the background worker (queued messages stay on disk for the next start).
    public func stop() {
        worker?.cancel()
        worker = nil
        nudge()
    }

    /// Asks the worker to try again now (after any request succeeded, say).
    public func nudge() {
        if let wakeUp {
            self.wakeUp = nil
            wakeUp.resume()
        } else {
            wakePending = true
        }
    }

    /// Delivers what is queued now, in order, and returns when the queue is empty or blocked by a
    /// temporary failure. Returns whether everything queued was settled (sent or failed).
    @discardableResult
    public func flush() async -> Bool {
        await deliverPass() == .drained
    }

    /// A stream of every entry change (queued, sending, sent, failed) from now on.
    public func updates() -> AsyncStream<OutboxEntry> {
        let (stream, continuation) = AsyncStream.makeStream(of: OutboxEntry.self)
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { _ in Task { await self.removeObserver(id) } }
        return stream
    }

    /// Waits until the entry is sent or failed and returns it in that state (an id the outbox never
    /// held comes back at once as failed).
    public func delivery(of id: String) async -> OutboxEntry {
        guard let row = try? store.row(id) else {
            return OutboxEntry(
                id: id, recipient: .conversation(id: ""), body: "", state: .failed(reason: "no such message in the outbox"),
                attempts: 0, createdAt: Date())
        }
        if row.entry.state.isFinal { return row.entry }
        return await withCheckedContinuation { continuation in
            waiters[id, default: []].append(continuation)
        }
    }

    // MARK: - Delivery

    private func run() async {
        while !Task.isCancelled {
            // A pass covers everything queued so far: wake-ups from before it are spent.
            wakePending = false
            switch await deliverPass() {
            case .drained:
                blockedPasses = 0
                await sleep(until: nil)
            case .blocked:
                blockedPasses += 1
                await sleep(until: backoff.backoff(forRetry: blockedPasses, random: { Double.random(in: $0) }))
            }
        }
    }

    /// One pass: deliver pending entries in order until done or a temporary failure.
    private func deliverPass() async -> Pass {
        guard let pending = try? store.pending() else { return .blocked }
        for row in pending {
            if Task.isCancelled { return .blocked }
            guard let current = try? store.row(row.entry.id), !current.entry.state.isFinal else { continue }
            var entry = current.entry
            entry.attempts += 1
            entry.state = .sending
            save(entry)
            do throws(NetworkError) {
                let message = try await deliver(current)
                entry.state = .sent(messageID: message.id)
                save(entry)
            } catch where Self.isTemporary(error) {
                entry.state = .queued
                save(entry)
                return .blocked
            } catch {
                entry.state = .failed(reason: Self.reason(error))
                save(entry)
            }
        }
        return .drained
    }

    private func deliver(_ row: OutboxStore.Row) async throws(NetworkError) -> Message {
        var conversationID = row.conversationID
        if conversationID == nil, case .user(let userID, let productID) = row.entry.recipient {
            let found = try await deliverer.conversation(withUser: userID, aboutProduct: productID)
            try? store.setConversation(found, for: row.entry.id)
            conversationID = found
        }
        return try await deliverer.post(row.entry.body, to: conversationID ?? "", idempotencyKey: row.entry.id)
    }

    private func save(_ entry: OutboxEntry) {
        try? store.update(entry.id, state: entry.state, attempts: entry.attempts)
        publish(entry)
        if entry.state.isFinal, let continuations = waiters.removeValue(forKey: entry.id) {
            for continuation in continuations { continuation.resume(returning: entry) }
        }
    }

    private func publish(_ entry: OutboxEntry) {
        for observer in observers.values { observer.yield(entry) }
    }

    private func removeObserver(_ id: UUID) {
        observers[id] = nil
    }

    /// Waits for a nudge, or until `timeout` passes when one is given.
    private func sleep(until timeout: Duration?) async {
        if wakePending {
            wakePending = false
            return
        }
        let timer = timeout.map { timeout in
            Task {
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { self.nudge() }
            }
        }
        await withCheckedContinuation { continuation in
            if Task.isCancelled { continuation.resume() } else { wakeUp = continuation }
        }
        timer?.cancel()
        wakePending = false
    }

    /// Network failures, throttling, server errors and an ended session keep the message queued.
    static func isTemporary(_ error: NetworkError) -> Bool {
        error.isRetryable || error.isSessionExpired || { if case .cancelled = error { true } else { false } }()
    }

    private static func reason(_ error: NetworkError) -> String {
        if case .httpStatus(let failure) = error, let serverError = failure.serverError {
            return serverError.message
        }
        return error.description
    }
}
