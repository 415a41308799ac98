import BazaarAPI
import Dependencies
import Foundation
import HTTPTypes
import Networking
import Synchronization
import TestSupport
import Testing

@testable import Chat

/// The outbox's rules, event by event, with no file, no network and no clock.
@Suite("The outbox's pure core")
struct OutboxTransitionsTests {
    static let at = Date(timeIntervalSince1970: 1_800_000_000)
    static let entry = OutboxEntry(
        id: "e1", recipient: .conversation(id: "c1"), body: "Still for sale?", state: .sending, attempts: 1,
        createdAt: at)
    static let message = Message(id: "m1", conversationId: "c1", senderId: "me", body: "Still for sale?", createdAt: at)

    static func status(_ code: Int, _ serverMessage: String? = nil) -> NetworkError {
        .httpStatus(
            HTTPStatusFailure(
                status: .init(code: code), headerFields: [:], body: Data(),
                serverError: serverMessage.map { ServerError(code: "invalid_field", message: $0) }))
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let outcome: Result<Message, NetworkError>
        let state: OutboxState
        let next: OutboxTransitions.Next
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "delivered: sent, and the pass goes on", outcome: .success(message), state: .sent(messageID: "m1"),
            next: .continuePass),
        Row(
            name: "no connection: queued again, the pass stops", outcome: .failure(.noConnection(reason: "refused")),
            state: .queued, next: .blockPass),
        Row(name: "timed out: queued again", outcome: .failure(.timedOut), state: .queued, next: .blockPass),
        Row(name: "503: queued again", outcome: .failure(status(503)), state: .queued, next: .blockPass),
        Row(name: "429: queued again", outcome: .failure(status(429)), state: .queued, next: .blockPass),
        Row(
            name: "the session ended: queued for the next sign-in", outcome: .failure(.sessionExpired), state: .queued,
            next: .blockPass),
        Row(name: "cancelled: queued again", outcome: .failure(.cancelled), state: .queued, next: .blockPass),
        Row(
            name: "422: failed with the server's sentence, the pass goes on",
            outcome: .failure(status(422, "body must be 1-4000 characters.")),
            state: .failed(reason: "body must be 1-4000 characters."), next: .continuePass),
        Row(
            name: "404 without a body: failed with the status's sentence", outcome: .failure(status(404)),
            state: .failed(reason: status(404).description), next: .continuePass),
    ]

    @Test(arguments: rows)
    func anAttemptsOutcomeDecidesTheEntryAndThePass(row: Row) {
        let (entry, next) = OutboxTransitions.afterAttempt(Self.entry, row.outcome)
        #expect(entry.state == row.state)
        #expect(next == row.next)
        #expect(entry.attempts == 1, "the attempt was counted before it was made")
        #expect(
            entry.message == (row.state == .sent(messageID: "m1") ? Self.message : nil),
            "a sent entry carries the server's message")
    }

    @Test(
        "blocked passes back off 0.5, 1, 2 s … up to the cap; a drained pass waits for a nudge and starts the count again"
    )
    func waitsBetweenPasses() {
        var schedule = OutboxSchedule(
            policy: RetryPolicy(baseDelay: .milliseconds(500), maxDelay: .seconds(4), jitter: false))
        let noJitter: (ClosedRange<Double>) -> Double = { $0.upperBound }
        let blocked = (0..<5).map { _ in schedule.afterPass(drained: false, random: noJitter) }
        #expect(
            blocked == [
                .backoff(.milliseconds(500)), .backoff(.seconds(1)), .backoff(.seconds(2)), .backoff(.seconds(4)),
                .backoff(.seconds(4)),
            ])
        #expect(schedule.afterPass(drained: true, random: noJitter) == .untilNudged)
        #expect(schedule.afterPass(drained: false, random: noJitter) == .backoff(.milliseconds(500)))
    }

    /// Refuses the first `failures` posts as if the server were unreachable, then delivers.
    final class FlakyDeliverer: OutboxDeliverer {
        let failures: Int
        let posts = Mutex(0)

        init(failures: Int) {
            self.failures = failures
        }

        func conversation(withUser userID: String, aboutProduct productID: String?) async throws(NetworkError) -> String
        {
            "c1"
        }

        func upload(_ photo: PhotoToSend, to conversationID: String) async throws(NetworkError) -> Photo {
            throw .noConnection(reason: "no photos in this test")
        }

        func post(_ body: String, attachmentIDs: [String], to conversationID: String, idempotencyKey: String)
            async throws(NetworkError) -> Message
        {
            let attempt = posts.withLock { posts in
                posts += 1
                return posts
            }
            guard attempt > failures else { throw .noConnection(reason: "refused") }
            return Message(
                id: "m1", conversationId: conversationID, senderId: "me", body: body,
                createdAt: OutboxTransitionsTests.at)
        }
    }

    @Test("after a failed attempt the worker waits its backoff on the injected clock: a minute passes in no time")
    func backoffWaitsOnTheInjectedClock() async throws {
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualClock()
        let deliverer = FlakyDeliverer(failures: 1)
        let outbox = try Outbox(
            path: folder.appendingPathComponent("outbox.sqlite").path, deliverer: deliverer,
            backoff: RetryPolicy(baseDelay: .seconds(60), maxDelay: .seconds(60), jitter: false), clock: clock,
            now: { Self.at })
        let queued = try await outbox.enqueue("Still for sale?", to: .conversation(id: "c1"))
        #expect(queued.createdAt == Self.at, "stamped by the injected time")
        let updates = await outbox.updates()
        await outbox.start()
        // The first attempt fails; the worker then waits 60 s on the clock, not on the wall.
        #expect(await clock.sleepers(reach: 1))
        #expect(deliverer.posts.withLock { $0 } == 1)
        clock.advance(by: .seconds(59))
        #expect(clock.sleeperCount == 1, "59 s is not yet the backoff")
        clock.advance(by: .seconds(1))
        let delivered = await within(.seconds(10), else: nil) { () -> OutboxEntry? in
            for await entry in updates where entry.state.isFinal { return entry }
            return nil
        }
        #expect(delivered?.state == .sent(messageID: "m1"))
        #expect(deliverer.posts.withLock { $0 } == 2)
        await outbox.stop()
    }
}
