import Foundation
import HTTPTypes
import Networking
import Synchronization
import Testing

@Suite("Completion-handler form")
struct CompletionHandlerTests {
    @Test("send(_:then:) delivers the decoded value, as the seeds' handlers do")
    func deliversSuccess() async throws {
        try await KitFixture.with { fixture in
            let result = await withCheckedContinuation { continuation in
                fixture.client().send(Get<ExampleProduct>(path: "/products/p1")) { continuation.resume(returning: $0) }
            }
            let product = try result.get()
            #expect(product == ExampleProduct(id: "p1", title: "Lamp", priceCents: 1500))
        }
    }

    @Test("send(_:then:) delivers the typed error")
    func deliversFailure() async throws {
        try await KitFixture.with { fixture in
            let result = await withCheckedContinuation { continuation in
                fixture.client().send(Get<ExampleProduct>(path: "/products/missing")) {
                    continuation.resume(returning: $0)
                }
            }
            guard case .failure(let error) = result else {
                Issue.record("expected a failure")
                return
            }
            #expect(error.status == .notFound)
        }
    }
}
