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

    @Option(
        help: """
            Connect the sockets to this server instead (another replica on the same PostgreSQL \
            database as --server-url): messages are sent to one replica and received from the other.
            """)
    var socketUrl: String?

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
        // Each process holds one end of every socket (the server child inherits this limit).
        try FileLimit.raise(toAtLeast: rlim_t(clients) + 512)
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
            // Every socket comes from this one address: the per-address connection cap must be off.
            let started = try ServerProcess(
                bcryptCost: bcryptCost, folder: folder, extraArguments: ["--max-connections-per-address", "0"])
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
            try await seed.startConversation(
                token: users[2 * index].tokens.accessToken, with: users[2 * index + 1].user.id)
        }
        let total = warmup + messages
        let recorder = Recorder(messages: total, sockets: clients)
        let logger = Logger(label: "fanout")
        let socketBase = socketUrl ?? baseURL.absoluteString
        let wsBase = socketBase.replacingOccurrences(of: "http://", with: "ws://")

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
                if socket % 50 == 49 {
                    try await recorder.waitForReady(atLeast: socket + 1 - 50, timeout: .seconds(30))
                }
            }
            try await recorder.waitForReady(atLeast: clients, timeout: .seconds(60))
            log.say(
                "sending \(warmup) warm-up + \(messages) measured messages, one every \(intervalMs) ms "
                    + "(\(conversationCount) conversations, \(2 * devices) sockets per message)")

            let interval = Duration.nanoseconds(Int64(intervalMs * 1_000_000))
            let start = ContinuousClock.now + .milliseconds(50)
            let cpuBefore = (
                server: serverProcess.flatMap(CPUTime.seconds(process:)), own: CPUTime.seconds(process: nil)
            )
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
                server: serverProcess.flatMap(CPUTime.seconds(process:)).flatMap { after in
                    cpuBefore.server.map { after - $0 }
                },
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
