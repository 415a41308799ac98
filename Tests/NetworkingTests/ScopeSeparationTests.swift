import Foundation
import TestSupport
import Testing

@Suite("Scope separation is checked by the compiler", .timeLimit(.minutes(2)))
struct ScopeSeparationTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("a non-authenticated endpoint type-checks with the non-authenticated controller (the harness works)")
    func correctUseCompiles() async throws {
        let outcome = try await SwiftTypeChecker.check(
            """
            import Networking
            func fetch(controller: NonAuthenticatedNetworkController) async throws {
                let endpoint = NonAuthenticatedEndpoint<EmptyResponse>(.get, "/health")
                let _: EmptyResponse = try await controller.request(endpoint)
            }
            """, packageRoot: Self.packageRoot)
        #expect(outcome.exitCode == 0, "\(outcome.output)")
    }

    @Test("an authenticated endpoint passed to the non-authenticated controller does not compile")
    func authenticatedEndpointIsRejected() async throws {
        let outcome = try await SwiftTypeChecker.check(
            """
            import Networking
            func misuse(controller: NonAuthenticatedNetworkController) async throws {
                let endpoint = AuthenticatedEndpoint<EmptyResponse>(.get, "/v1/users/me")
                let _: EmptyResponse = try await controller.request(endpoint, progress: nil)
            }
            """, packageRoot: Self.packageRoot)
        #expect(outcome.exitCode != 0)
        #expect(
            outcome.output.contains(
                "cannot convert value of type 'AuthenticatedEndpoint<EmptyResponse>' to expected argument type 'NonAuthenticatedEndpoint<EmptyResponse>'"
            ), "\(outcome.output)")
    }

    @Test("an authenticated endpoint cannot be sent through a plain APIClient either")
    func authenticatedEndpointIsNotAnAPIRequest() async throws {
        let outcome = try await SwiftTypeChecker.check(
            """
            import Networking
            func misuse(client: APIClient) async throws {
                let endpoint = AuthenticatedEndpoint<EmptyResponse>(.get, "/v1/users/me")
                let _: EmptyResponse = try await client.send(endpoint, progress: nil)
            }
            """, packageRoot: Self.packageRoot)
        #expect(outcome.exitCode != 0)
        #expect(outcome.output.contains("AuthenticatedEndpoint<EmptyResponse>"), "\(outcome.output)")
        #expect(outcome.output.contains("APIRequest"), "\(outcome.output)")
    }
}
