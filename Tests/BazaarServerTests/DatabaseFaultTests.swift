import BazaarAPI
import BazaarServer
import Foundation
import TestSupport
import Testing

/// PostgreSQL stopped at once under two replicas while a client sends: requests answer 503 fast,
/// and when it is back the replicas recover by themselves with nothing lost or doubled, in the
/// database or on the other replica's live socket.
@Suite(
    "Replicas through a PostgreSQL restart",
    .enabled(
        if: ProcessInfo.processInfo.environment["BAZAAR_TEST_POSTGRES_CLUSTER"] != nil,
        Comment(rawValue: PostgresTestDatabase.skipReason)))
struct DatabaseFaultTests {
    /// What the sending client saw.
    struct SendReport: Sendable {
        var acknowledged: [String: Message] = [:]
        var statuses: [Int: Int] = [:]
        var transportErrors = 0
        var slowestRefusal: Duration = .zero
    }

    @Test func requestsFailFastDuringTheOutageAndTheReplicasRecoverWithoutARestart() async throws {
        let cluster = try await PostgresCluster.make()
        do {
            try await ReplicaPair.run(on: cluster.url) { replicas in
                let ada = try await replicas.clientA.register("ada")
                let bob = try await replicas.clientB.register("bob")
                let conversation = try await replicas.clientA.startConversation(
                    with: ada.user.id, token: bob.tokens.accessToken)
                let adaOnB = try await EventSocket.connect(
                    baseURL: replicas.clientB.baseURL, credential: .header(ada.tokens.accessToken))

                // Bob sends without pause through replica A; a refused send is tried again with the same key.
                let stopSending = Counter()
                let acknowledgedSoFar = Counter()
                let sender = Task { () -> SendReport in
                    var report = SendReport()
                    var index = 0
                    let clock = ContinuousClock()
                    while stopSending.value == 0 {
                        let key = "fault-\(index)"
                        let start = clock.now
                        do {
                            let response = try await replicas.clientA.sendMessage(
                                "message \(index)", in: conversation.id, token: bob.tokens.accessToken, key: key)
                            report.statuses[response.status, default: 0] += 1
                            if response.status == 201 {
                                report.acknowledged[key] = try response.decode(Message.self)
                                acknowledgedSoFar.increment()
                                index += 1
                                continue
                            }
                            if response.status == 503 {
                                report.slowestRefusal = max(report.slowestRefusal, clock.now - start)
                                #expect(response.header("Retry-After") != nil)
                            }
                        } catch {
                            report.transportErrors += 1
                        }
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                    return report
                }

                // Counted sends rather than fixed sleeps: a busy machine slows the sender, not the proof.
                try await waitUntil(acknowledgedSoFar, reaches: 3)
                try await cluster.stopImmediately()
                for client in [replicas.clientA, replicas.clientB] {
                    #expect(
                        try await eventually(within: .seconds(10)) { try await client.get("/health").status == 503 },
                        "a replica did not notice the outage")
                    let health = try await client.get("/health")
                    expectError(health, 503, code: "service_unavailable")
                    // Out of the load balancer's pool, but not restarted by its orchestrator.
                    expectError(try await client.get(APIRoutes.healthReady.template), 503, code: "service_unavailable")
                    expectStatus(try await client.get(APIRoutes.healthLive.template), 200)
                }
                // Their last ping that succeeded was sent before the stop, so no lease outlives
                // it by 2 s: within that, neither replica believes its memories, and `/metrics` says so.
                for client in [replicas.clientA, replicas.clientB] {
                    #expect(
                        try await eventually(within: .seconds(2)) {
                            try await client.metric(ServerMetrics.Name.memosBelieved) == 0
                        }, "a replica still believed its memories 2 s after the outage was seen")
                }
                try await cluster.start()

                // Without restarting the replicas: both healthy again within a few seconds.
                for client in [replicas.clientA, replicas.clientB] {
                    #expect(
                        try await eventually(within: .seconds(30), every: .milliseconds(100)) {
                            try await client.get(APIRoutes.healthReady.template).status == 200
                        }, "replica did not recover")
                }
                try await waitUntil(acknowledgedSoFar, reaches: acknowledgedSoFar.value + 3)
                stopSending.increment()
                let report = await sender.value
                // (Asked once the sender has stopped, so its quota is not spent waiting.)
                for client in [replicas.clientA, replicas.clientB] {
                    #expect(try await client.memos(believed: true), "a replica's listener did not vouch again")
                }

                // Refusals were quick 503s, never hangs or 500s; some sends were refused, many acknowledged.
                #expect(
                    Set(report.statuses.keys).isSubset(of: [201, 503]),
                    "statuses: \(report.statuses)\n\(replicas.logs())")
                #expect(report.statuses[503, default: 0] > 0, "the outage refused nothing: \(report.statuses)")
                #expect(report.slowestRefusal < .seconds(3), "slowest 503: \(report.slowestRefusal)")
                #expect(report.transportErrors == 0)
                #expect(report.acknowledged.count >= 6)

                // Every acknowledged message is stored exactly once.
                var history: [Message] = []
                var before: String?
                repeat {
                    let path =
                        APIRoutes.messages.path(conversation.id) + "?limit=100" + (before.map { "&before=\($0)" } ?? "")
                    let page = try await replicas.clientB.get(path, token: ada.tokens.accessToken).decode(
                        Page<Message>.self)
                    history += page.items
                    before = page.nextCursor
                } while before != nil
                #expect(history.count == report.acknowledged.count)
                #expect(Set(history.map(\.id)) == Set(report.acknowledged.values.map(\.id)))

                // Live delivery works again on the replica that did not take the send, and nothing was
                // lost in the gap: every message answered 201, also those sent right up to the stop,
                // reached Ada's socket on B (its event commits with it, and B's listener catches up).
                let after = try await replicas.clientA.sendMessage(
                    "after the restart", in: conversation.id, token: bob.tokens.accessToken
                )
                .decode(Message.self)
                var heard: Set<String> = []
                let expected = Set(report.acknowledged.values.map(\.id)).union([after.id])
                while !expected.isSubset(of: heard), let event = await adaOnB.next(timeout: .seconds(10)) {
                    if case .messageCreated(let message) = event { heard.insert(message.id) }
                }
                #expect(heard.contains(after.id), "the message after the restart did not reach B's socket")
                let lost = report.acknowledged.filter { !heard.contains($0.value.id) }.keys.sorted()
                #expect(lost.isEmpty, "answered 201 but never delivered live: \(lost) of \(report.acknowledged.count)")
                await adaOnB.close()
            }
        } catch {
            await cluster.destroy()
            throw error
        }
        await cluster.destroy()
    }

    /// Waits until `counter` reaches `target`, failing the test after 30 s.
    private func waitUntil(_ counter: Counter, reaches target: Int) async throws {
        if try await !eventually(within: .seconds(30), { counter.value >= target }) {
            Issue.record("only \(counter.value) of \(target) sends acknowledged after 30 s")
        }
    }
}
