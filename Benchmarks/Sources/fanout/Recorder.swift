import ArgumentParser
import AsyncHTTPClient
import BazaarAPI
import BenchSupport
import Foundation
import Logging
import NIOCore
import Synchronization
import WSClient

#if canImport(Glibc)
    import Glibc
#endif

/// Collects send times, deliveries and failures from many tasks and sockets.
final class Recorder: Sendable {
    private struct State {
        var readySockets = Set<Int>()
        var sendStart: [ContinuousClock.Instant?]
        var expected: [Int]
        var answeredAt: [ContinuousClock.Instant?]
        var sendFailures: [String] = []
        var deliveredTo: [Set<Int>]
        var deliveries: [(index: Int, at: ContinuousClock.Instant)] = []
        var duplicates = 0
        var unknownFrames = 0
        var otherEvents = 0
        var socketFailures: [String] = []
        var received = 0
        var expectedTotal = 0
    }

    private let state: Mutex<State>

    /// A recorder for `messages` sends and `sockets` sockets.
    init(messages: Int, sockets: Int) {
        state = Mutex(
            State(
                sendStart: Array(repeating: nil, count: messages), expected: Array(repeating: 0, count: messages),
                answeredAt: Array(repeating: nil, count: messages),
                deliveredTo: Array(repeating: [], count: messages)))
    }

    /// Notes a frame that arrived at `instant` on `socket`.
    func received(_ text: String, at instant: ContinuousClock.Instant, socket: Int) {
        let event: LiveEvent
        do {
            event = try BazaarJSON.makeDecoder().decode(LiveEvent.self, from: Data(text.utf8))
        } catch {
            state.withLock { $0.unknownFrames += 1 }
            return
        }
        switch event {
        case .ready:
            state.withLock { _ = $0.readySockets.insert(socket) }
        case .messageCreated(let message):
            guard message.body.hasPrefix("fanout "), let index = Int(message.body.dropFirst(7)) else {
                state.withLock { $0.unknownFrames += 1 }
                return
            }
            state.withLock { state in
                guard index >= 0, index < state.sendStart.count else {
                    state.unknownFrames += 1
                    return
                }
                guard state.deliveredTo[index].insert(socket).inserted else {
                    state.duplicates += 1
                    return
                }
                state.received += 1
                state.deliveries.append((index, instant))
            }
        case .notificationCreated, .conversationRead, .offerUpdated:
            state.withLock { $0.otherEvents += 1 }
        }
    }

    /// Notes a socket that could not connect or ended with an error.
    func socketFailed(_ socket: Int, error: any Error) {
        state.withLock { $0.socketFailures.append("socket \(socket): \(error)") }
    }

    /// Notes the instant just before message `index` is sent, and how many sockets should get it.
    func willSend(_ index: Int, at instant: ContinuousClock.Instant, expected: Int) {
        state.withLock {
            $0.sendStart[index] = instant
            $0.expected[index] = expected
            $0.expectedTotal += expected
        }
    }

    /// Notes the instant the 201 arrived.
    func sent(_ index: Int, answeredAt instant: ContinuousClock.Instant) {
        state.withLock { $0.answeredAt[index] = instant }
    }

    /// Notes a failed send (it is expected nowhere).
    func sendFailed(_ index: Int, error: any Error) {
        state.withLock {
            $0.sendFailures.append("message \(index): \(error)")
            $0.expectedTotal -= $0.expected[index]
            $0.expected[index] = 0
        }
    }

    /// Waits until `count` sockets have their `ready` frame.
    func waitForReady(atLeast count: Int, timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while state.withLock({ $0.readySockets.count }) < count {
            let failures = state.withLock { $0.socketFailures }
            if let first = failures.first {
                throw FanoutFailure(description: "\(failures.count) sockets failed, first: \(first)")
            }
            guard ContinuousClock.now < deadline else {
                throw FanoutFailure(
                    description: "only \(state.withLock { $0.readySockets.count }) of \(count) sockets ready")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until every expected delivery arrived or `timeout` passed.
    func waitForDeliveries(timeout: Duration) async {
        let deadline = ContinuousClock.now + timeout
        while state.withLock({ $0.received < $0.expectedTotal }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The numbers of the measured messages (index ≥ `measuredFrom`).
    func summary(
        measuredFrom: Int, clients: Int, users: Int, devices: Int, conversations: Int, intervalMs: Double,
        sendWindow: Duration, cpu: CPUShare
    ) -> Summary {
        state.withLock { state in
            let measured = measuredFrom..<state.sendStart.count
            var latencies: [Duration] = []
            var afterAnswer: [Duration] = []
            for delivery in state.deliveries where measured.contains(delivery.index) {
                if let began = state.sendStart[delivery.index] { latencies.append(delivery.at - began) }
                if let answered = state.answeredAt[delivery.index] { afterAnswer.append(delivery.at - answered) }
            }
            let sends = measured.compactMap { index in
                state.answeredAt[index].flatMap { answered in state.sendStart[index].map { answered - $0 } }
            }
            let expected = measured.reduce(0) { $0 + state.expected[$1] }
            let received = measured.reduce(0) { $0 + min(state.deliveredTo[$1].count, state.expected[$1]) }
            let sent = measured.count(where: { state.expected[$0] > 0 })
            return Summary(
                clients: clients, users: users, devices: devices, conversations: conversations, intervalMs: intervalMs,
                warmup: measuredFrom, sent: sent, sendFailures: state.sendFailures, expected: expected,
                received: received, duplicates: state.duplicates, unknownFrames: state.unknownFrames,
                otherEvents: state.otherEvents,
                socketFailures: state.socketFailures, delivery: Percentiles(latencies),
                send: Percentiles(sends), afterAnswer: Percentiles(afterAnswer), sendWindow: sendWindow, cpu: cpu)
        }
    }
}
