import BazaarAPI
import Dependencies
import Foundation
import Logging
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
/// - One delivery pass runs at a time: ``flush()`` waits for the worker's pass, then runs its own.
/// - A state the file refuses is not lost: it is kept in memory (and shown), written again before
///   the next pass, logged, and reported by ``storageFailure``; a message whose sent state could not
///   be written is never posted again. A message whose `sending` mark cannot be written is not sent.
///
/// States are observable through ``updates()``; ``delivery(of:)`` waits for one message's outcome.
public actor Outbox {
    /// The result of one pass over the queue.
    enum Pass {
        case drained
        case blocked
    }

    private let store: any OutboxStorage
    private let deliverer: any OutboxDeliverer
    private var schedule: OutboxSchedule
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let logger: Logger
    private var worker: Task<Void, Never>?
    private var runningPass: Task<Pass, Never>?
    /// Entry states the file refused, newest per id, written again before each pass.
    private var unsaved: [String: OutboxEntry] = [:]
    /// Conversations found for messages to a person that the file refused to record.
    private var unsavedConversations: [String: String] = [:]
    private var lastStorageFailure: OutboxStorageFailure?
    private var wakeUp: CheckedContinuation<Void, Never>?
    private var wakePending = false
    private var observers: [UUID: AsyncStream<OutboxEntry>.Continuation] = [:]
    private var waiters: [String: [CheckedContinuation<OutboxEntry, Never>]] = [:]

    /// Opens the outbox file at `path` (creating it), delivering through `deliverer`.
    ///
    /// - Parameters:
    ///   - backoff: how long the queue waits after a temporary failure (`baseDelay` doubling up to
    ///     `maxDelay`; its attempt and total limits are not used: the outbox never gives up).
    ///   - clock: what the backoff waits on.
    ///   - now: the time a new entry is stamped with.
    public init(
        path: String, deliverer: any OutboxDeliverer,
        backoff: RetryPolicy = Outbox.defaultBackoff, clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "bazaar.outbox")
    ) throws {
        try self.init(
            store: OutboxStore(path: path), deliverer: deliverer, backoff: backoff, clock: clock, now: now,
            logger: logger)
    }

    /// An outbox over any storage (tests put a failing one here).
    init(
        store: any OutboxStorage, deliverer: any OutboxDeliverer,
        backoff: RetryPolicy = Outbox.defaultBackoff, clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "bazaar.outbox")
    ) {
        self.store = store
        self.deliverer = deliverer
        self.schedule = OutboxSchedule(policy: backoff)
        self.clock = clock
        self.now = now
        self.logger = logger
    }

    /// Half a second, doubling up to 30 s.
    public static let defaultBackoff = RetryPolicy(baseDelay: .milliseconds(500), maxDelay: .seconds(30))

    /// Why the outbox file refused the last write or read, while some state lives only in memory
    /// (or the queue could not be read); `nil` once everything is written.
    public var storageFailure: OutboxStorageFailure? { lastStorageFailure }

    /// How long an uploaded photo is trusted to wait on the server before its message is sent.
    /// The server forgets unsent photos after a day; a message delivered later uploads them again.
    public static let uploadFreshness: TimeInterval = 20 * 60 * 60

    /// Writes `body` (and the bytes of `photos`) for `recipient` to disk and wakes the delivery
    /// worker; returns the queued entry. Photos are uploaded only when the message's turn comes.
    ///
    /// - Throws: ``MessageDraftError`` for a message the server would refuse (nothing is written:
    ///   no text and no photo, text over 4000 characters, more than four photos), or the file's error.
    public func enqueue(_ body: String, photos: [PhotoToSend] = [], to recipient: OutboxRecipient) throws
        -> OutboxEntry
    {
        if let problem = MessageDraftError.check(body: body, photoCount: photos.count) { throw problem }
        // A photo alone is sent without text, not with the spaces typed beside it.
        let text = body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "" : body
        let entry = OutboxEntry(
            id: UUID().uuidString.lowercased(), recipient: recipient, body: text, state: .queued, attempts: 0,
            createdAt: now(), photoCount: photos.count)
        try store.insert(entry, photos: photos)
        publish(entry)
        nudge()
        return entry
    }

    /// Whether a delivery pass (the worker's or a ``flush()``) is running now: an entry it holds
    /// gets its answer without being asked for again.
    public var isDelivering: Bool { runningPass != nil }

    /// Every entry, oldest first, in its current state (states not yet written included).
    public func entries() throws -> [OutboxEntry] {
        try store.all().map { unsaved[$0.entry.id] ?? $0.entry }
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
    /// temporary failure. Returns whether everything queued was settled (sent or failed). A pass
    /// already running (the worker's, or another flush's) is waited for first: never two at once.
    @discardableResult
    public func flush() async -> Bool {
        await pass() == .drained
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
        if let kept = unsaved[id], kept.state.isFinal { return kept }
        let row: OutboxStore.Row?
        do {
            row = try store.row(id)
        } catch {
            // Unreadable is not unknown: wait for the delivery, which the worker still makes.
            recordFailure(error, doing: "read a message")
            return await withCheckedContinuation { waiters[id, default: []].append($0) }
        }
        guard let row else {
            return OutboxEntry(
                id: id, recipient: .conversation(id: ""), body: "",
                state: .failed(reason: "no such message in the outbox"),
                attempts: 0, createdAt: now())
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
            let drained = await pass() == .drained
            switch schedule.afterPass(drained: drained, random: { Double.random(in: $0) }) {
            case .untilNudged: await sleep(until: nil)
            case .backoff(let delay): await sleep(until: delay)
            }
        }
    }

    /// Runs one delivery pass, after any pass already running has finished.
    private func pass() async -> Pass {
        while let running = runningPass { _ = await running.value }
        // The pass clears its own record on the actor before it completes, so whoever waits on it
        // finds the way free (and this actor turn sets the record before the pass can start).
        let pass = Task { await self.deliverPassThenClear() }
        runningPass = pass
        return await withTaskCancellationHandler {
            await pass.value
        } onCancel: {
            pass.cancel()
        }
    }

    private func deliverPassThenClear() async -> Pass {
        let result = await deliverPass()
        runningPass = nil
        return result
    }

    /// One pass: write what the file refused before, then deliver pending entries in order until
    /// done or a temporary failure.
    private func deliverPass() async -> Pass {
        guard writeUnsaved() else { return .blocked }
        let pending: [OutboxStore.Row]
        do {
            pending = try store.pending()
        } catch {
            recordFailure(error, doing: "read the queue")
            return .blocked
        }
        for row in pending {
            if Task.isCancelled { return .blocked }
            let current: OutboxStore.Row
            do {
                guard let found = try store.row(row.entry.id), !found.entry.state.isFinal else { continue }
                current = found
            } catch {
                recordFailure(error, doing: "read a message")
                return .blocked
            }
            let photos: [OutboxStore.StoredPhoto]
            do {
                photos = current.entry.photoCount == 0 ? [] : try store.photos(of: current.entry.id)
            } catch {
                recordFailure(error, doing: "read a message's photos")
                return .blocked
            }
            var entry = current.entry
            entry.attempts += 1
            entry.state = .sending
            // Not sent unless the file knows it may have been: a crash then re-sends with the key.
            guard write(entry) else { return .blocked }
            publish(entry)
            let outcome: Result<Message, NetworkError>
            do throws(NetworkError) {
                outcome = .success(try await deliver(current, photos: photos))
            } catch {
                outcome = .failure(error)
            }
            let (attempted, next) = OutboxTransitions.afterAttempt(entry, outcome)
            save(attempted)
            if next == .blockPass { return .blocked }
        }
        return .drained
    }

    private func deliver(_ row: OutboxStore.Row, photos: [OutboxStore.StoredPhoto]) async throws(NetworkError)
        -> Message
    {
        let id = row.entry.id
        var conversationID = row.conversationID ?? unsavedConversations[id]
        if conversationID == nil, case .user(let userID, let productID) = row.entry.recipient {
            let found = try await deliverer.conversation(withUser: userID, aboutProduct: productID)
            do {
                try store.setConversation(found, for: id)
            } catch {
                // Harmless if lost for good: the server answers the same conversation next time.
                unsavedConversations[id] = found
                recordFailure(error, doing: "record a conversation")
            }
            conversationID = found
        }
        let conversation = conversationID ?? ""
        let attachmentIDs = try await upload(photos, of: id, to: conversation)
        return try await deliverer.post(
            row.entry.body, attachmentIDs: attachmentIDs, to: conversation, idempotencyKey: id)
    }

    /// The attachments for a message's photos: each uploaded once, just before the message, and
    /// again only when the server may have forgotten it (see ``uploadFreshness``). An upload whose
    /// record the file refuses is kept for this attempt; after a crash it is made again, and the
    /// server forgets the unused one a day later.
    private func upload(_ photos: [OutboxStore.StoredPhoto], of id: String, to conversationID: String)
        async throws(NetworkError) -> [String]
    {
        var attachmentIDs: [String] = []
        for stored in photos {
            if let attachmentID = stored.attachmentID, let uploadedAt = stored.uploadedAt,
                now().timeIntervalSince(uploadedAt) < Self.uploadFreshness
            {
                attachmentIDs.append(attachmentID)
                continue
            }
            let uploaded = try await deliverer.upload(stored.photo, to: conversationID)
            do {
                try store.recordUpload(of: id, position: stored.position, attachmentID: uploaded.id, at: now())
            } catch {
                recordFailure(error, doing: "record a photo's upload")
            }
            attachmentIDs.append(uploaded.id)
        }
        return attachmentIDs
    }

    /// Records `entry`'s state (kept in memory when the file refuses it), tells observers, and
    /// settles its waiters when the state is final.
    private func save(_ entry: OutboxEntry) {
        if !write(entry) { unsaved[entry.id] = entry }
        publish(entry)
        if entry.state.isFinal, let continuations = waiters.removeValue(forKey: entry.id) {
            for continuation in continuations { continuation.resume(returning: entry) }
        }
    }

    /// Writes `entry`'s state to the file; false (logged) when the file refuses.
    private func write(_ entry: OutboxEntry) -> Bool {
        do {
            try store.update(entry.id, state: entry.state, attempts: entry.attempts)
            unsaved[entry.id] = nil
            if unsaved.isEmpty && unsavedConversations.isEmpty { lastStorageFailure = nil }
            return true
        } catch {
            recordFailure(error, doing: "write a message's state")
            return false
        }
    }

    /// Writes the states the file refused before; false while it still refuses any.
    private func writeUnsaved() -> Bool {
        for (id, conversationID) in unsavedConversations {
            do {
                try store.setConversation(conversationID, for: id)
                unsavedConversations[id] = nil
            } catch {
                recordFailure(error, doing: "record a conversation")
            }
        }
        for entry in unsaved.values.sorted(by: { $0.createdAt < $1.createdAt }) where !write(entry) {
            return false
        }
        if unsaved.isEmpty && unsavedConversations.isEmpty { lastStorageFailure = nil }
        return true
    }

    private func recordFailure(_ error: any Error, doing what: String) {
        lastStorageFailure = OutboxStorageFailure(reason: "could not \(what): \(error)")
        logger.error("outbox file refused", metadata: ["action": "\(what)", "error": "\(error)"])
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
        let timer = timeout.map { [clock] timeout in
            Task {
                try? await clock.sleep(for: timeout)
                if !Task.isCancelled { self.nudge() }
            }
        }
        await withCheckedContinuation { continuation in
            if Task.isCancelled { continuation.resume() } else { wakeUp = continuation }
        }
        timer?.cancel()
        wakePending = false
    }
}
