import BazaarStorage
import GRDB
import Synchronization

/// Runs SQLite writes through one writer that drains a queue: the writes that arrive while a
/// transaction commits wait, and then share the next transaction and its one `fsync`.
///
/// Each write runs in a savepoint of the shared transaction, so one that fails (or returns an
/// outcome such as "not found") rolls back alone and the others still commit. No caller hears
/// of its write before the transaction holding it has committed: with `synchronous = FULL`, a
/// write answered 2xx survives a crash of the process or the machine. If the commit itself fails,
/// every write in it fails with that error.
final class GroupCommitWriter: Sendable {
    /// One queued write: runs in the batch's transaction and tells its caller afterwards.
    private struct Job: Sendable {
        /// Runs the write (in a savepoint when it shares the transaction); returns whether it
        /// succeeded, and how to tell the caller once the transaction has ended.
        let run: @Sendable (Database, _ alone: Bool) -> (succeeded: Bool, reply: @Sendable () -> Void)
        /// Tells the caller the transaction failed.
        let fail: @Sendable (any Error) -> Void
    }

    private struct Queue {
        var pending: [Job] = []
        var draining = false
    }

    private let pool: DatabasePool
    /// The most writes one transaction holds (1: every write commits alone, as without grouping).
    let maxBatch: Int
    /// The most writes that may wait for a transaction; one more is refused at once
    /// (``StoreError/unavailable(_:)``, answered 503 with `Retry-After`) rather than queued
    /// without end while the disk falls behind.
    let maxQueued: Int
    private let queue = Mutex(Queue())
    /// Transactions committed and writes in them, for tests and metrics.
    private let counts = Mutex((transactions: 0, writes: 0))

    /// A writer on `pool` putting at most `maxBatch` writes in one transaction, with at most
    /// `maxQueued` waiting.
    init(pool: DatabasePool, maxBatch: Int = 256, maxQueued: Int = 4096) {
        self.pool = pool
        self.maxBatch = max(1, maxBatch)
        self.maxQueued = max(1, maxQueued)
    }

    /// Transactions committed so far, and the writes they held.
    var statistics: (transactions: Int, writes: Int) { counts.withLock { $0 } }

    /// Writes waiting for the next transaction.
    var queuedWrites: Int { queue.withLock { $0.pending.count } }

    /// Runs `body` in the next shared transaction and returns its result once that has committed.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let job = Job(
                run: { db, alone in
                    let result = alone ? Result { try body(db) } : Self.inSavepoint(db, body)
                    let succeeded = if case .success = result { true } else { false }
                    return (succeeded, { continuation.resume(with: result) })
                },
                fail: { error in continuation.resume(throwing: error) })
            let (accepted, startDraining) = queue.withLock { queue -> (Bool, Bool) in
                guard queue.pending.count < maxQueued else { return (false, false) }
                queue.pending.append(job)
                guard !queue.draining else { return (true, false) }
                queue.draining = true
                return (true, true)
            }
            guard accepted else {
                continuation.resume(throwing: StoreError.unavailable("too many writes waiting"))
                return
            }
            if startDraining { pool.asyncWriteWithoutTransaction { [self] db in drain(db) } }
        }
    }

    /// On GRDB's writer queue: commits batches until the queue is empty.
    private func drain(_ db: Database) {
        while true {
            let batch = queue.withLock { queue -> [Job] in
                let batch = Array(queue.pending.prefix(maxBatch))
                queue.pending.removeFirst(batch.count)
                if batch.isEmpty { queue.draining = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            var replies: [@Sendable () -> Void] = []
            replies.reserveCapacity(batch.count)
            var committed = true
            do {
                try db.inTransaction(.immediate) {
                    // A write alone needs no savepoint: if it fails, the transaction rolls back.
                    if batch.count == 1 {
                        let (succeeded, reply) = batch[0].run(db, true)
                        replies.append(reply)
                        committed = succeeded
                        return succeeded ? .commit : .rollback
                    }
                    for job in batch { replies.append(job.run(db, false).reply) }
                    return .commit
                }
            } catch {
                for job in batch { job.fail(error) }
                continue
            }
            if committed { counts.withLock { $0 = ($0.transactions + 1, $0.writes + batch.count) } }
            for reply in replies { reply() }
        }
    }

    /// Runs `body` in a savepoint: kept when it returns, rolled back when it throws.
    private static func inSavepoint<T>(_ db: Database, _ body: (Database) throws -> T) -> Result<T, any Error> {
        var result: Result<T, any Error> = .failure(CancellationError())
        do {
            try db.inSavepoint {
                do {
                    result = .success(try body(db))
                    return .commit
                } catch {
                    result = .failure(error)
                    return .rollback
                }
            }
        } catch {
            result = .failure(error)
        }
        return result
    }
}
