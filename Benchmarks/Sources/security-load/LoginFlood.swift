import ArgumentParser
import AsyncHTTPClient
import BazaarAPI
import BenchSupport
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Synchronization

/// `security-load login-flood`: legitimate sign-ins, each from its own address, timed while 16
/// tasks flood `POST /v1/auth/register` from other addresses, beside the same sign-ins with no
/// flood (the yardstick), all against one release server with real bcrypt (cost 10) and its
/// quotas on.
struct LoginFlood: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login-flood",
        abstract: "Sign-in latency during a 16-task registration flood from other addresses.",
        discussion: """
            Three phases of --duration seconds each on one server: no flood (the yardstick); a flood \
            from one address (its register quota answers 429); a flood spread over --spread addresses \
            (each under its quota, so every request reaches the password hasher). Addresses are given \
            in X-Forwarded-For (the server trusts it here).
            """)

    @Option(help: "Seconds per phase.") var duration = 30.0
    @Option(help: "Flooding tasks.") var floodTasks = 16
    @Option(help: "Addresses the spread flood rotates through.") var spread = 4096
    @Option(help: "Legitimate users, each signing in from an address of their own.") var users = 8
    @Option(help: "Seconds between one user's sign-ins (the sign-in quota is 60 a minute per address).")
    var interval = 2.0
    @Option(help: "bcrypt cost of the server.") var bcryptCost = 10

    func run() async throws {
        let server = try ServerProcess(
            bcryptCost: bcryptCost, quotas: true, extraArguments: ["--trust-forwarded-for"])
        defer { server.stop() }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 256
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            try await measureAll(FloodClient(baseURL: server.baseURL.absoluteString, client: client))
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    private func measureAll(_ api: FloodClient) async throws {
        let nonce = String(UUID().uuidString.prefix(6)).lowercased()
        for user in 0..<users {
            let status = try await api.register("legit\(nonce)\(user)", from: Self.legitAddress(user))
            guard status == 201 else { throw SecurityLoadFailure("registering legit user \(user) answered \(status)") }
        }
        print(
            "login-flood: \(users) users signing in every \(interval) s, \(duration) s per phase, bcrypt cost \(bcryptCost)"
        )
        print(
            "phase                          | sign-ins | p50 ms  | p90 ms  | p99 ms  | max ms  | not 200 | flood: 201 / 429 / 503 / other"
        )
        for phase in Phase.allCases {
            let result = try await measure(phase, api: api, nonce: nonce)
            print(result.line(phase))
        }
    }

    enum Phase: CaseIterable {
        case quiet, oneAddress, spread

        var name: String {
            switch self {
            case .quiet: "no flood (yardstick)"
            case .oneAddress: "flood from 1 address"
            case .spread: "flood over many addresses"
            }
        }
    }

    struct Result {
        var logins: [Duration]
        var refused: Int
        var flood: [Int: Int]

        func line(_ phase: Phase) -> String {
            let p = Percentiles(logins)
            let counts = [201, 429, 503].map { flood[$0, default: 0] }
            let other = flood.filter { ![201, 429, 503].contains($0.key) }.values.reduce(0, +)
            func ms(_ value: Double) -> String { String(format: "%7.1f", value) }
            return phase.name.padding(toLength: 30, withPad: " ", startingAt: 0)
                + " | \(String(format: "%8d", p.count)) | \(ms(p.at(50))) | \(ms(p.at(90))) | \(ms(p.at(99))) | \(ms(p.max))"
                + " | \(String(format: "%7d", refused)) | \(counts.map(String.init).joined(separator: " / ")) / \(other)"
        }
    }

    private func measure(_ phase: Phase, api: FloodClient, nonce: String) async throws -> Result {
        let deadline = ContinuousClock.now + .milliseconds(Int64(duration * 1000))
        let tally = Tally()
        let spread = spread
        try await withThrowingTaskGroup(of: Void.self) { group in
            if phase != .quiet {
                for task in 0..<floodTasks {
                    group.addTask {
                        var attempt = 0
                        while ContinuousClock.now < deadline {
                            attempt += 1
                            let address =
                                phase == .oneAddress
                                ? "198.51.100.7" : Self.spreadAddress((task * 100_003 + attempt) % spread)
                            let status = try await api.register(
                                "f\(nonce)\(phase == .oneAddress ? 1 : 2)\(task)x\(attempt)", from: address)
                            tally.flood.withLock { $0[status, default: 0] += 1 }
                        }
                    }
                }
            }
            for user in 0..<users {
                let interval = interval
                let users = users
                group.addTask {
                    // Staggered, so the sign-ins do not all arrive together.
                    try await Task.sleep(for: .milliseconds(Int64(interval * 1000) * Int64(user) / Int64(users)))
                    while ContinuousClock.now < deadline {
                        let started = ContinuousClock.now
                        let status = try await api.login("legit\(nonce)\(user)", from: Self.legitAddress(user))
                        let took = ContinuousClock.now - started
                        tally.logins.withLock {
                            if status == 200 { $0.times.append(took) } else { $0.refused += 1 }
                        }
                        try await Task.sleep(until: started + .milliseconds(Int64(interval * 1000)))
                    }
                }
            }
            try await group.waitForAll()
        }
        let (times, refused) = tally.logins.withLock { ($0.times, $0.refused) }
        return Result(logins: times, refused: refused, flood: tally.flood.withLock { $0 })
    }

    static func legitAddress(_ user: Int) -> String { "192.0.2.\(user + 1)" }
    static func spreadAddress(_ index: Int) -> String {
        "10.\(index / 65536 % 256).\(index / 256 % 256).\(index % 256)"
    }
}

/// What one phase counted, from every task.
final class Tally: Sendable {
    /// The flood's answers by status.
    let flood = Mutex([Int: Int]())
    /// The legitimate sign-ins' times (200s) and how many were answered otherwise.
    let logins = Mutex((times: [Duration](), refused: 0))
}

/// Registers and signs in with raw AsyncHTTPClient, answering only the status.
struct FloodClient: Sendable {
    let baseURL: String
    let client: HTTPClient

    func register(_ username: String, from address: String) async throws -> Int {
        try await post(
            "/v1/auth/register",
            RegisterRequest(username: username, password: "bench-password", displayName: "Bench"), from: address)
    }

    func login(_ username: String, from address: String) async throws -> Int {
        try await post("/v1/auth/login", LoginRequest(username: username, password: "bench-password"), from: address)
    }

    private func post<Body: Encodable>(_ path: String, _ body: Body, from address: String) async throws -> Int {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-Forwarded-For", value: address)
        request.body = .bytes(ByteBuffer(data: try BazaarJSON.makeEncoder().encode(body)))
        let response = try await client.execute(request, timeout: .seconds(60))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }
}

/// A run that could not be made, in words.
struct SecurityLoadFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
