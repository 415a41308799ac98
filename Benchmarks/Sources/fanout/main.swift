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

/// `fanout`: live-event delivery latency of a release `bazaar-server`.
///
/// Topology: `--clients` WebSocket connections to `GET /v1/events`, `--devices` per user (so
/// `clients / devices` users), users paired into conversations (user 0 with 1, 2 with 3, …). Every
/// message is sent over HTTP by one participant of a conversation (round-robin over the
/// conversations, alternating sender) and the server fans `message.created` out to every socket of
/// both participants: `2 × devices` deliveries per message. Latency runs from just before the HTTP
/// send to the moment a socket's handler has the frame; each delivery is one sample.
///
/// Sends are open-loop: message `i` leaves at `start + i × interval`, whatever happened to the ones
/// before, so a slow delivery shows as latency rather than as a lower send rate.
@main
struct Fanout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fanout",
        abstract: "Measures message.created delivery latency over /v1/events WebSockets.",
        discussion: """
            Starts a release bazaar-server (bcrypt cost 4, temporary SQLite) unless --server-url \
            is given, registers users, opens one socket per device, sends paced messages over HTTP \
            and reports delivery latency (p50/p90/p99/p99.9/max) with sent/expected/received/lost counts.
            """
    )

    @Option(help: "WebSocket connections (sockets).")
    var clients = 100

    @Option(help: "Sockets per user (a user's devices); clients must be a multiple of 2 × devices.")
    var devices = 1

    @Option(help: "Measured messages.")
    var messages = 2000

    @Option(help: "Messages sent before measuring (not counted).")
    var warmup = 200

    @Option(help: "Milliseconds between sends (open-loop pacing).")
    var intervalMs = 5.0

    @Option(help: "Seconds to wait for the last deliveries after the last send.")
    var drainSeconds = 5.0

    @Option(help: "Use this running server instead of starting one (users are registered on it).")
    var serverUrl: String?

    @Option(help: "bcrypt cost of the server started here (4 keeps registration fast; logins are not measured).")
    var bcryptCost = 4

    @Option(
        help: """
            Folder under which the started server's temporary SQLite folder is made (default: the \
            system temporary folder). /dev/shm puts the database on tmpfs, where fsync costs nothing, \
            to separate the disk's share of the latency from the server's.
            """)
    var databaseParent: String?

    @Flag(
        help: """
            Use the existing release bazaar-server as it is. By default `swift build -c release \
            --product bazaar-server` runs first (quick when nothing changed), so the numbers are those \
            of the current sources. BAZAAR_SERVER_BINARY, when set, names the binary and skips the build.
            """)
    var noBuild = false

    /// Checks the topology adds up.
    func validate() throws {
        guard devices >= 1, clients >= 2 * devices, clients % (2 * devices) == 0 else {
            throw ValidationError("--clients must be a positive multiple of 2 × --devices")
        }
        guard messages > 0, warmup >= 0, intervalMs > 0, drainSeconds >= 0 else {
            throw ValidationError("--messages, --interval-ms must be positive; --warmup, --drain-seconds not negative")
        }
    }

    /// Runs the whole measurement and prints the summary.
    func run() async throws {
        try FileLimit.raise(toAtLeast: rlim_t(clients) * 2 + 256)
        let server: ServerProcess?
        let baseURL: URL
        if let serverUrl {
            guard let url = URL(string: serverUrl) else { throw ValidationError("--server-url is not a URL") }
            server = nil
            baseURL = url
        } else {
            if !noBuild, ProcessInfo.processInfo.environment["BAZAAR_SERVER_BINARY"] == nil {
                try Self.buildReleaseServer()
            }
            let folder = databaseParent.map {
                URL(fileURLWithPath: $0).appendingPathComponent("bazaar-fanout-\(UUID().uuidString)")
            }
            let started = try ServerProcess(bcryptCost: bcryptCost, folder: folder)
            server = started
            baseURL = started.baseURL
        }
        defer { server?.stop() }
        let stopServer: @Sendable () -> Void = { [server] in server?.stop() }
        let result = try await measure(
            baseURL: baseURL, serverProcess: server?.processIdentifier, whenMeasured: stopServer)
        print(result.report)
        if !result.passed { throw ExitCode(2) }
    }

    /// Registers, connects, sends and collects; the sockets live in a task group that ends once the
    /// numbers are in and `whenMeasured` has run (stopping the server closes every socket).
    private func measure(
        baseURL: URL, serverProcess: Int32?, whenMeasured: @escaping @Sendable () -> Void
    ) async throws -> Summary {
        let seed = SeedClient(baseURL: baseURL)
        let userCount = clients / devices
        let nonce = String(UUID().uuidString.prefix(6)).lowercased()
        let log = Progress()
        log.say("registering \(userCount) users on \(baseURL.absoluteString)")
        let users = try await Self.concurrently(count: userCount, width: 16) { index in
            try await seed.register(username: "fan\(nonce)\(index)")
        }
        let conversationCount = userCount / 2
        let conversations = try await Self.concurrently(count: conversationCount, width: 16) { index in
            try await seed.startConversation(token: users[2 * index].tokens.accessToken, with: users[2 * index + 1].user.id)
        }
        let total = warmup + messages
        let recorder = Recorder(messages: total, sockets: clients)
        let logger = Logger(label: "fanout")
        let wsBase = baseURL.absoluteString.replacingOccurrences(of: "http://", with: "ws://")

        /// Connects the sockets into `group`, sends, waits for the deliveries and summarises.
        func run(group: inout ThrowingTaskGroup<Void, any Error>) async throws -> Summary {
            log.say("connecting \(clients) sockets (\(devices) per user)")
            for socket in 0..<clients {
                let token = users[socket / devices].tokens.accessToken
                let url = wsBase + "/v1/events?token=" + token
                group.addTask {
                    do {
                        try await WebSocketClient.connect(url: url, logger: logger) { inbound, _, _ in
                            for try await message in inbound.messages(maxSize: 1 << 20) {
                                let now = ContinuousClock.now
                                guard case .text(let text) = message else { continue }
                                recorder.received(text, at: now, socket: socket)
                            }
                        }
                    } catch {
                        recorder.socketFailed(socket, error: error)
                    }
                }
                // Connecting a thousand at once only measures the accept queue; a few at a time is enough.
                if socket % 50 == 49 { try await recorder.waitForReady(atLeast: socket + 1 - 50, timeout: .seconds(30)) }
            }
            try await recorder.waitForReady(atLeast: clients, timeout: .seconds(60))
            log.say(
                "sending \(warmup) warm-up + \(messages) measured messages, one every \(intervalMs) ms "
                    + "(\(conversationCount) conversations, \(2 * devices) sockets per message)")

            let interval = Duration.nanoseconds(Int64(intervalMs * 1_000_000))
            let start = ContinuousClock.now + .milliseconds(50)
            let cpuBefore = (server: serverProcess.flatMap(CPUTime.seconds(process:)), own: CPUTime.seconds(process: nil))
            try await withThrowingTaskGroup(of: Void.self) { sends in
                for index in 0..<total {
                    try await Task.sleep(until: start + interval * index, clock: .continuous)
                    let conversation = index % conversationCount
                    let senderUser = 2 * conversation + (index / conversationCount) % 2
                    let token = users[senderUser].tokens.accessToken
                    let conversationId = conversations[conversation].id
                    sends.addTask {
                        let began = ContinuousClock.now
                        recorder.willSend(index, at: began, expected: 2 * devices)
                        do {
                            _ = try await seed.sendMessage(
                                token: token, conversationId: conversationId, body: "fanout \(index)")
                            recorder.sent(index, answeredAt: ContinuousClock.now)
                        } catch {
                            recorder.sendFailed(index, error: error)
                        }
                    }
                }
                try await sends.waitForAll()
            }
            let sendWindow = ContinuousClock.now - start
            let cpu = CPUShare(
                server: serverProcess.flatMap(CPUTime.seconds(process:)).flatMap { after in cpuBefore.server.map { after - $0 } },
                own: CPUTime.seconds(process: nil).flatMap { after in cpuBefore.own.map { after - $0 } },
                window: sendWindow / .seconds(1), messages: total)
            await recorder.waitForDeliveries(timeout: .milliseconds(Int64(drainSeconds * 1000)))
            let summary = recorder.summary(
                measuredFrom: warmup, clients: clients, users: userCount, devices: devices,
                conversations: conversationCount, intervalMs: intervalMs, sendWindow: sendWindow, cpu: cpu)
            whenMeasured()
            group.cancelAll()
            return summary
        }

        return try await withThrowingTaskGroup(of: Void.self) { group in
            // The socket tasks end only when their connections close: on any failure, stop the
            // server (closing them all) before leaving the group, or it would wait for ever.
            do {
                return try await run(group: &group)
            } catch {
                whenMeasured()
                group.cancelAll()
                throw error
            }
        }
    }

    /// Brings the release `bazaar-server` up to date with the sources.
    static func buildReleaseServer() throws {
        Progress().say("swift build -c release --product bazaar-server")
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swift", "build", "-c", "release", "--product", "bazaar-server"]
        build.currentDirectoryURL = ServerProcess.repositoryRoot
        build.standardOutput = FileHandle.standardError
        try build.run()
        build.waitUntilExit()
        guard build.terminationStatus == 0 else {
            throw FanoutFailure(description: "swift build -c release --product bazaar-server failed")
        }
    }

    /// Runs `body` for 0..<count with at most `width` at a time; results in index order.
    static func concurrently<T: Sendable>(
        count: Int, width: Int, _ body: @escaping @Sendable (Int) async throws -> T
    ) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self) { group in
            var results = [T?](repeating: nil, count: count)
            var next = 0
            while next < min(width, count) {
                let index = next
                group.addTask { (index, try await body(index)) }
                next += 1
            }
            while let (index, value) = try await group.next() {
                results[index] = value
                if next < count {
                    let index = next
                    group.addTask { (index, try await body(index)) }
                    next += 1
                }
            }
            return results.compactMap { $0 }
        }
    }
}

/// Why the run could not go on.
struct FanoutFailure: Error, CustomStringConvertible {
    /// In words.
    let description: String
}

/// Progress lines on standard error (standard output carries only the summary).
struct Progress: Sendable {
    /// Writes one line.
    func say(_ line: String) {
        FileHandle.standardError.write(Data("fanout: \(line)\n".utf8))
    }
}

/// Raises the soft limit of open files (1000 sockets on each side need 2000+ descriptors; the
/// server child inherits the raised limit).
enum FileLimit {
    /// Why the limit could not be raised.
    struct Failure: Error, CustomStringConvertible {
        /// In words.
        let description: String
    }

    /// Raises the soft `RLIMIT_NOFILE` to `needed` (at most the hard limit).
    static func raise(toAtLeast needed: rlim_t) throws {
        #if canImport(Glibc)
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            throw Failure(description: "getrlimit failed: errno \(errno)")
        }
        guard limit.rlim_cur < needed else { return }
        guard limit.rlim_max >= needed else {
            throw Failure(description: "open-file hard limit \(limit.rlim_max) is below the \(needed) needed; raise it (ulimit -Hn)")
        }
        limit.rlim_cur = needed
        guard setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            throw Failure(description: "setrlimit failed: errno \(errno)")
        }
        #endif
    }
}

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
        case .notificationCreated, .conversationRead:
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
            if let first = failures.first { throw FanoutFailure(description: "\(failures.count) sockets failed, first: \(first)") }
            guard ContinuousClock.now < deadline else {
                throw FanoutFailure(description: "only \(state.withLock { $0.readySockets.count }) of \(count) sockets ready")
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

/// Percentiles of a set of durations (nearest rank), in milliseconds.
struct Percentiles: Sendable {
    /// How many samples.
    let count: Int
    private let sorted: [Double]

    /// Sorts the samples.
    init(_ samples: [Duration]) {
        sorted = samples.map { $0 / .milliseconds(1) }.sorted()
        count = sorted.count
    }

    /// The `p`-th percentile (0-100) in milliseconds; 0 with no samples.
    func at(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]
    }

    /// The largest sample.
    var max: Double { sorted.last ?? 0 }
}

/// What one run found, and its printed form.
struct Summary: Sendable {
    let clients: Int
    let users: Int
    let devices: Int
    let conversations: Int
    let intervalMs: Double
    let warmup: Int
    let sent: Int
    let sendFailures: [String]
    let expected: Int
    let received: Int
    let duplicates: Int
    let unknownFrames: Int
    /// Frames of other kinds (the recipient's notification.created), not deliveries.
    let otherEvents: Int
    let socketFailures: [String]
    let delivery: Percentiles
    let send: Percentiles
    let afterAnswer: Percentiles
    let sendWindow: Duration
    let cpu: CPUShare

    /// Every send went out, every delivery arrived once, no socket failed.
    var passed: Bool {
        sendFailures.isEmpty && received == expected && duplicates == 0 && socketFailures.isEmpty
    }

    /// The table printed on standard output.
    var report: String {
        func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
        let seconds = sendWindow / .seconds(1)
        var lines = [
            "fanout: \(clients) sockets = \(users) users × \(devices) socket(s), \(conversations) conversations; "
                + "\(2 * devices) sockets per message",
            String(
                format: "sends: one every %.2f ms (%.0f msg/s achieved), %d warm-up not counted", intervalMs,
                Double(sent + warmup) / max(seconds, 1e-9), warmup),
            "",
            "| messages sent | send failures | expected deliveries | received | lost | duplicates |",
            "| ---: | ---: | ---: | ---: | ---: | ---: |",
            "| \(sent) | \(sendFailures.count) | \(expected) | \(received) | \(expected - received) | \(duplicates) |",
            "",
            "| latency | p50 | p90 | p99 | p99.9 | max | samples |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
            "| delivery (send → socket) | \(ms(delivery.at(50))) | \(ms(delivery.at(90))) | \(ms(delivery.at(99))) | "
                + "\(ms(delivery.at(99.9))) | \(ms(delivery.max)) | \(delivery.count) |",
            "| HTTP send (→ 201) | \(ms(send.at(50))) | \(ms(send.at(90))) | \(ms(send.at(99))) | "
                + "\(ms(send.at(99.9))) | \(ms(send.max)) | \(send.count) |",
            "| frame after the 201 (may be < 0) | \(ms(afterAnswer.at(50))) | \(ms(afterAnswer.at(90))) | "
                + "\(ms(afterAnswer.at(99))) | \(ms(afterAnswer.at(99.9))) | \(ms(afterAnswer.max)) | \(afterAnswer.count) |",
        ]
        lines.append("")
        lines.append(cpu.description)
        lines.append("other frames received (notification.created, not counted above): \(otherEvents)")
        if unknownFrames > 0 { lines.append("unrecognised frames: \(unknownFrames)") }
        for failure in sendFailures.prefix(3) { lines.append("send failure: \(failure)") }
        for failure in socketFailures.prefix(3) { lines.append("socket failure: \(failure)") }
        return lines.joined(separator: "\n")
    }
}

/// CPU time of a process, from `/proc/<pid>/stat` (Linux).
enum CPUTime {
    /// User plus system seconds used so far by `process` (this process when `nil`); `nil` where
    /// `/proc` is not readable.
    static func seconds(process: Int32?) -> Double? {
        let path = "/proc/" + (process.map(String.init) ?? "self") + "/stat"
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // Fields after the command name (which is in parentheses and may hold spaces): state is
        // field 3, utime 14, stime 15.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        #if canImport(Glibc)
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        #else
        let ticks = 100.0
        #endif
        return (user + system) / ticks
    }
}

/// How busy the server and this tool were while the messages were being sent.
struct CPUShare: Sendable, CustomStringConvertible {
    /// Server CPU seconds in the window (`nil` for a server not started here).
    let server: Double?
    /// This process's CPU seconds in the window (sockets, frame decoding, HTTP sends).
    let own: Double?
    /// The window in seconds.
    let window: Double
    /// Messages sent in the window (warm-up included).
    let messages: Int

    /// One line: each side's share of one core and the server's CPU per message.
    var description: String {
        func share(_ seconds: Double?) -> String {
            seconds.map { String(format: "%.0f%% of a core", $0 / Swift.max(window, 1e-9) * 100) } ?? "unknown"
        }
        var line = "CPU while sending: bazaar-server \(share(server)), fanout itself \(share(own))"
        if let server, messages > 0 {
            line += String(format: "; server %.0f µs per message", server / Double(messages) * 1e6)
        }
        return line
    }
}
