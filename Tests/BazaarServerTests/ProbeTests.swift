import BazaarAPI
import BazaarDomain
import BazaarServer
import BazaarServerRuntime
import Foundation
import TestSupport
import Testing

/// The probes an orchestrator uses: live while the process answers, ready while it should get
/// traffic. A graceful shutdown turns ready to 503 at once and keeps serving for the drain delay
/// (measured on a manual clock here, so the test waits for no real time).
@Suite("Liveness and readiness probes", .timeLimit(.minutes(2)))
struct ProbeTests {
    @Test(
        "live and ready answer 200; from a graceful shutdown's start ready is 503 while live and requests still answer, until the drain delay ends",
        arguments: StorageKind.available)
    func readyTurns503AtOnceWhenDraining(storage: StorageKind) async throws {
        try await storage.withConfiguration { configuration in
            var configuration = configuration
            let clock = ManualClock()
            configuration.drainDelay = .seconds(30)
            configuration.drainClock = clock
            let server = try await BazaarServer.start(
                configuration: configuration, logger: TestServer.quietLogger(label: "probes"))
            let client = BazaarTestClient(baseURL: server.baseURL)
            let live = try await client.get(APIRoutes.healthLive.template)
            expectStatus(live, 200)
            #expect(try live.decode(HealthStatus.self).status == "ok")
            let ready = try await client.get(APIRoutes.healthReady.template)
            expectStatus(ready, 200)
            #expect(try ready.decode(HealthStatus.self).status == "ok")
            #expect(ready.header("Cache-Control") == "no-store")
            let ada = try await client.register("ada")

            let stopping = Task { await server.stop() }
            // The drain gate is asleep on the manual clock once the shutdown has reached it.
            #expect(await clock.sleepers(reach: 1, within: .seconds(20)), "the drain began")
            expectError(try await client.get(APIRoutes.healthReady.template), 503, code: "service_unavailable")
            expectStatus(try await client.get(APIRoutes.healthLive.template), 200)
            expectStatus(try await client.get(APIRoutes.me.template, token: ada.tokens.accessToken), 200)
            expectStatus(try await client.get(APIRoutes.health.template), 200)

            // The drain delay over, the shutdown finishes what is in flight and the server stops.
            clock.advance(by: .seconds(30))
            await stopping.value
        }
    }

    @Test("probes are never counted against the read quota")
    func probesAreNotThrottled() async throws {
        try await BazaarTestHarness.withServer(configuring: { $0.quotas.readsPerMinutePerAddress = 2 }) { client in
            for _ in 0..<5 {
                expectStatus(try await client.get(APIRoutes.healthReady.template), 200)
                expectStatus(try await client.get(APIRoutes.healthLive.template), 200)
            }
            expectStatus(try await client.get(APIRoutes.products.template), 200)
        }
    }
}
