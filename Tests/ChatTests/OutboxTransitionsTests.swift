import BazaarAPI
import Dependencies
import Foundation
import HTTPTypes
import Networking
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
}
