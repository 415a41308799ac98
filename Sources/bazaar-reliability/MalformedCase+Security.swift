import BazaarAPI
import Foundation
import ProcessSupport
import Synchronization

/// The cases of issue 32: what an attacker would try against sessions, the throttle, the stores'
/// strings and the password checks. Each judges itself; a 5xx fails it as any case.
extension MalformedCase {
    static let securityCases: [MalformedCase] = [
        socketRevocation, concurrentWrongPasswords, hostileStrings, registerFlood,
    ]

    /// A socket of a session that logs out is closed within 2 s with `1008`.
    static let socketRevocation = MalformedCase(
        name: "a live socket of a session that logs out", expectation: .judgedByCase
    ) { context in
        try await offPool {
            let tokens = try SecurityProbe.register("revoke", port: context.port).tokens
            let socket = try EventSocketProbe.open(port: context.port, token: tokens.accessToken)
            let started = ContinuousClock.now
            let logout = try SecurityProbe.request(
                "POST", APIRoutes.logout.template, token: tokens.accessToken, port: context.port)
            let answer = socket.connection.receive(
                until: {
                    WebSocketFrame.serverFrames(in: socket.remainder + [UInt8]($0)).contains { $0.opcode == 0x8 }
                },
                deadline: started + .seconds(3))
            let took = ContinuousClock.now - started
            let close = WebSocketFrame.serverFrames(in: socket.remainder + [UInt8](answer.response)).first {
                $0.opcode == 0x8
            }
            var outcome = CaseOutcome()
            outcome.statuses = [logout.status]
            outcome.note =
                "close frame \(close?.closeCode.map(String.init) ?? "none") \(took.secondsText) after the logout"
            if logout.status != 204 {
                outcome.failure = "the logout was answered \(logout.status)"
            } else if close?.closeCode != 1008 {
                outcome.failure = "expected a close frame 1008"
            } else if took > .seconds(2) {
                outcome.failure = "closed only after \(took.secondsText)"
            }
            return outcome
        }
    }

    /// 40 wrong passwords at once for one account from one address: no more get checked than the
    /// throttle allows (5), the rest are 429, or 503 where the bound on password checks is full
    /// (on PostgreSQL each attempt holds its place through the throttle's round trip, so 40 at
    /// once outnumber the places): a deliberate refusal, counted apart, never a check.
    static let concurrentWrongPasswords = MalformedCase(
        name: "40 wrong passwords at once for one account", expectation: .judgedByCase
    ) { context in
        try await offPool {
            let username = try SecurityProbe.register("throttle", port: context.port).username
            let body = #"{"username":"\#(username)","password":"wrong-password"}"#
            let statuses = SecurityProbe.concurrently(40) { _ in
                (try? SecurityProbe.request("POST", APIRoutes.login.template, json: body, port: context.port))?.status
                    ?? 0
            }
            var outcome = CaseOutcome()
            outcome.statuses = statuses.filter { $0 != 503 }.sorted()
            let checked = statuses.filter { $0 == 401 }.count
            outcome.note =
                "\(checked) checked (401), \(statuses.filter { $0 == 429 }.count) refused (429), "
                + "\(statuses.filter { $0 == 503 }.count) over the bound (503)"
            if checked > 5 {
                outcome.failure = "\(checked) wrong passwords were checked; the throttle allows 5"
            } else if statuses.contains(where: { ![401, 429, 503].contains($0) }) {
                outcome.failure = "unexpected statuses \(Set(statuses).sorted())"
            }
            return outcome
        }
    }

    /// NUL and 3 KB strings in every id, name and token a store is asked about: each a 4xx (on
    /// PostgreSQL, whose text cannot hold NUL, these were 500s).
    static let hostileStrings = MalformedCase(
        name: "NUL and 3 KB strings in ids, names and tokens", expectation: .judgedByCase
    ) { context in
        try await offPool {
            let nul = "\\u0000"
            let long = (0..<90).map { _ in UUID().uuidString }.joined()
            let id = UUID().uuidString.lowercased()
            var requests: [(String, String, String?)] = [
                ("POST", APIRoutes.login.template, #"{"username":"ada\#(nul)","password":"password123"}"#),
                ("POST", APIRoutes.login.template, #"{"username":"\#(long)","password":"password123"}"#),
                (
                    "POST", APIRoutes.register.template,
                    #"{"username":"a\#(nul)","password":"password123","displayName":"A"}"#
                ),
                ("POST", APIRoutes.refresh.template, #"{"refreshToken":"\#(nul)"}"#),
                ("POST", APIRoutes.startConversation.template, #"{"userId":"\#(id)\#(nul)"}"#),
                ("POST", APIRoutes.startConversation.template, #"{"userId":"\#(long)"}"#),
                ("POST", APIRoutes.startConversation.template, #"{"userId":"\#(id)","productId":"\#(nul)"}"#),
                ("POST", APIRoutes.markRead.path(context.conversationID), #"{"upTo":"\#(nul)"}"#),
                ("POST", APIRoutes.markRead.path(context.conversationID), #"{"upTo":"\#(long)"}"#),
                ("POST", APIRoutes.sendMessage.path(context.conversationID), #"{"body":"\#(nul)"}"#),
            ]
            for path in [
                APIRoutes.user.path("%00"), APIRoutes.product.path("%00"), APIRoutes.messages.path("%00"),
                APIRoutes.conversation.path(long), APIRoutes.products.template + "?sellerId=%00",
                APIRoutes.products.template + "?query=%00",
            ] {
                requests.append(("GET", path, nil))
            }
            var outcome = CaseOutcome()
            for (method, path, json) in requests {
                let answer = try SecurityProbe.request(
                    method, path, json: json, token: context.token, headers: ["Idempotency-Key: k"], port: context.port)
                outcome.statuses.append(answer.status)
                if !(400..<500).contains(answer.status), outcome.failure == nil {
                    outcome.failure = "\(method) \(path.prefix(60)) was answered \(answer.status)"
                }
            }
            return outcome
        }
    }

    /// 16 clients register as fast as they can, each from its own address (the server trusts
    /// `X-Forwarded-For` in this run); meanwhile someone signs in from another address. The flood
    /// gets 201, 429 (the per-address quota) or 503 (the bound on password checks), never a 500,
    /// and every sign-in succeeds within 1.5 s.
    static let registerFlood = MalformedCase(
        name: "a register flood from 16 addresses while someone signs in", expectation: .judgedByCase
    ) { context in
        try await offPool {
            let username = try SecurityProbe.register("legit", port: context.port).username
            let stop = Mutex(false)
            let signIns = Mutex<[Duration]>([])
            let signInStatuses = Mutex<[Int]>([])
            let login = #"{"username":"\#(username)","password":"password123"}"#
            let floodStatuses = SecurityProbe.concurrently(17) { index -> [Int] in
                if index == 16 {
                    // The legitimate user: five sign-ins during the flood.
                    Thread.sleep(forTimeInterval: 0.3)
                    for _ in 0..<5 {
                        let started = ContinuousClock.now
                        let status =
                            (try? SecurityProbe.request(
                                "POST", APIRoutes.login.template, json: login,
                                headers: ["X-Forwarded-For: 198.51.100.7"],
                                port: context.port))?.status ?? 0
                        signIns.withLock { $0.append(ContinuousClock.now - started) }
                        signInStatuses.withLock { $0.append(status) }
                        Thread.sleep(forTimeInterval: 0.2)
                    }
                    stop.withLock { $0 = true }
                    return []
                }
                var statuses: [Int] = []
                var number = 0
                while !stop.withLock({ $0 }) {
                    number += 1
                    let body =
                        #"{"username":"flood\#(index)_\#(number)_\#(UUID().uuidString.prefix(6).lowercased())","password":"password123","displayName":"F"}"#
                    let status =
                        (try? SecurityProbe.request(
                            "POST", APIRoutes.register.template, json: body,
                            headers: ["X-Forwarded-For: 203.0.113.\(index + 1)"], port: context.port))?.status ?? 0
                    statuses.append(status)
                }
                return statuses
            }.flatMap { $0 }
            let slowest = signIns.withLock { $0.max() } ?? .zero
            let statuses = signInStatuses.withLock { $0 }
            var outcome = CaseOutcome()
            outcome.statuses = statuses
            let counts = Dictionary(grouping: floodStatuses, by: { $0 }).mapValues(\.count)
            outcome.note =
                "flood \(counts.sorted { $0.key < $1.key }.map { "\($0.value)×\($0.key)" }.joined(separator: " ")); "
                + "5 sign-ins, slowest \(slowest.secondsText)"
            if let bad = floodStatuses.first(where: { ![201, 429, 503].contains($0) }) {
                outcome.failure = "a flood request was answered \(bad)"
            } else if statuses != [200, 200, 200, 200, 200] {
                outcome.failure = "sign-ins during the flood were answered \(statuses)"
            } else if slowest > .milliseconds(1500) {
                outcome.failure = "a sign-in took \(slowest.secondsText) during the flood"
            }
            return outcome
        }
    }
}

/// Plain HTTP/1.1 requests over raw sockets for the security cases, blocking (use in `offPool`).
enum SecurityProbe {
    /// A status and body.
    struct Answer {
        let status: Int
        let body: [UInt8]
    }

    /// Sends one request with `Connection: close` and reads its answer.
    static func request(
        _ method: String, _ path: String, json: String? = nil, token: String? = nil, headers: [String] = [],
        port: Int
    ) throws -> Answer {
        let connection = try RawHTTP.Connection(port: port, timeoutSeconds: 10)
        let body = Data((json ?? "").utf8)
        var head =
            "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        if json != nil { head += "Content-Type: application/json\r\n" }
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for header in headers { head += header + "\r\n" }
        try connection.send(Data((head + "\r\n").utf8) + body)
        let stream = HTTPResponseStream(connection.receive(until: { HTTPResponseStream($0).hasComplete(1) }).response)
        guard let response = stream.responses.first else { throw ReliabilityFailure("\(method) \(path): no answer") }
        return Answer(status: response.status, body: response.body)
    }

    /// Registers a new user named `prefix_<random>` (password `password123`); its name and tokens.
    static func register(_ prefix: String, port: Int) throws -> (username: String, tokens: Tokens) {
        let name = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
        let answer = try request(
            "POST", APIRoutes.register.template,
            json: #"{"username":"\#(name)","password":"password123","displayName":"\#(prefix)"}"#, port: port)
        guard answer.status == 201 else {
            throw ReliabilityFailure("registering \(name) was answered \(answer.status)")
        }
        return (name, try BazaarJSON.makeDecoder().decode(AuthResponse.self, from: Data(answer.body)).tokens)
    }

    /// Runs `work` on `count` threads of their own at once (blocking calls, off every pool) and
    /// returns the results in index order.
    static func concurrently<Result: Sendable>(_ count: Int, _ work: @escaping @Sendable (Int) -> Result) -> [Result] {
        let results = Mutex<[Int: Result]>([:])
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                let result = work(index)
                results.withLock { $0[index] = result }
                group.leave()
            }.start()
        }
        group.wait()
        return results.withLock { results in (0..<count).compactMap { results[$0] } }
    }
}
