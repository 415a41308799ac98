import Foundation
import HTTPTypes
import Networking
import TestSupport
import Testing

@Suite("NetworkError cases from a real server")
struct NetworkErrorTests {
    @Test("a closed port is noConnection")
    func closedPortIsNoConnection() async throws {
        let client = APIClient(
            baseURL: RefusedAddress.url,
            performer: NetworkRequestPerformer(retryPolicy: .never))
        await #expect {
            try await client.send(Get<Echo>(path: "/echo"))
        } throws: { error in
            guard case NetworkError.noConnection = error else { return false }
            return true
        }
    }

    @Test("a server that does not answer in time is timedOut")
    func slowServerTimesOut() async throws {
        try await KitFixture.with { fixture in
            let client = fixture.client(retry: .never, timeout: .milliseconds(300))
            await #expect {
                try await client.send(Get<Data>(path: "/stall", query: ["ms": 3000]))
            } throws: { error in
                guard case NetworkError.timedOut = error else { return false }
                return true
            }
        }
    }

    @Test("a non-2xx answer carries the status and the server's decoded error body")
    func statusCarriesServerError() async throws {
        try await KitFixture.with { fixture in
            await #expect {
                try await fixture.client().send(Get<ExampleProduct>(path: "/products/missing"))
            } throws: { error in
                guard let error = error as? NetworkError, case .httpStatus(let failure) = error else { return false }
                return failure.status == .notFound && failure.serverError?.code == "not_found"
                    && error.serverCode == "not_found"
                    && error.description == "No product has that id (HTTP 404, not_found)."
            }
        }
    }

    @Test("a body of the wrong shape is decodingFailed naming the path of the bad field")
    func decodingFailureNamesPath() async throws {
        struct Page: Decodable, Sendable { var items: [ExampleProduct] }
        try await KitFixture.with { fixture in
            await #expect {
                try await fixture.client().send(Get<Page>(path: "/bad-product"))
            } throws: { error in
                guard case NetworkError.decodingFailed(let failure) = error else { return false }
                return failure.path == "items[0].priceCents" && failure.type == "Page"
            }
        }
    }

    @Test("a request that cannot be built is requestBuildFailed, before anything is sent")
    func buildFailureIsTyped() async throws {
        try await KitFixture.with { fixture in
            let request = Get<Echo>(path: "/echo", headers: ["X-Bad": "line\nbreak"])
            await #expect {
                try await fixture.client().send(request)
            } throws: { error in
                guard case NetworkError.requestBuildFailed(.invalidHeader(let name)) = error else { return false }
                return name == "X-Bad"
            }
            #expect(fixture.hits.count("echo") == 0)
        }
    }

    @Test("a body over the client's limit is responseTooLarge")
    func oversizedBodyIsRefused() async throws {
        try await KitFixture.with { fixture in
            var performer = NetworkRequestPerformer(retryPolicy: .never)
            performer.maxResponseBytes = 1000
            let client = APIClient(baseURL: fixture.baseURL, performer: performer)
            await #expect {
                try await client.send(Get<Data>(path: "/big", query: ["bytes": 5000]))
            } throws: { error in
                guard case NetworkError.responseTooLarge(1000) = error else { return false }
                return true
            }
        }
    }

    @Test("no body is expected: EmptyResponse; raw bytes: Data")
    func emptyAndRawResources() async throws {
        try await KitFixture.with { fixture in
            let empty = try await fixture.client().send(Get<EmptyResponse>(path: "/no-content"))
            let raw = try await fixture.client().send(Get<Data>(path: "/text"))
            #expect(empty == EmptyResponse())
            #expect(raw == Data("plain".utf8))
        }
    }

    @Test("every case reads as a sentence for a person")
    func descriptionsAreSentences() {
        let cases: [NetworkError] = [
            .noConnection(reason: "refused"), .timedOut, .cancelled, .responseTooLarge(limit: 10), .sessionExpired,
            .requestBuildFailed(.invalidPath("/x?")), .transport(reason: "boom"),
            .decodingFailed(DecodingFailure(type: "User", path: "name", reason: "the field is missing")),
            .httpStatus(HTTPStatusFailure(status: .badGateway, headerFields: [:], body: Data(), serverError: nil)),
        ]
        for error in cases {
            #expect(error.description.first?.isUppercase == true)
            #expect(error.description.hasSuffix("."))
        }
    }

    @Test(
        "each case reads exactly as written, with one full stop and the status's reason phrase",
        arguments: [
            (
                NetworkError.noConnection(reason: "Connection refused."),
                "Could not connect to the server (Connection refused). Check that it is running and reachable."
            ),
            (.timedOut, "The server did not answer in time."),
            (.cancelled, "The request was cancelled."),
            (.responseTooLarge(limit: 10), "The response was larger than the 10 bytes this client accepts."),
            (.sessionExpired, "Your session has ended. Please sign in again."),
            (
                .decompressionFailed(reason: "it inflates more than 100 times its size."),
                "The compressed response could not be decoded: it inflates more than 100 times its size."
            ),
            (
                .requestBuildFailed(.invalidPath("/x?")),
                "The request could not be built: the path \"/x?\" cannot be joined to the base URL."
            ),
            (.transport(reason: "connection reset."), "The request failed: connection reset."),
            (
                .decodingFailed(DecodingFailure(type: "User", path: "", reason: "The given data was not valid JSON.")),
                "The response could not be read as User: The given data was not valid JSON."
            ),
            (
                .decodingFailed(DecodingFailure(type: "User", path: "name", reason: "the field is missing")),
                "The response could not be read as User at name: the field is missing."
            ),
            (
                .httpStatus(
                    HTTPStatusFailure(
                        status: HTTPResponse.Status(code: 404), headerFields: [:], body: Data(), serverError: nil)),
                "The server answered 404 Not Found."
            ),
            (
                .httpStatus(
                    HTTPStatusFailure(
                        status: HTTPResponse.Status(code: 503, reasonPhrase: "Busy"), headerFields: [:], body: Data(),
                        serverError: nil)),
                "The server answered 503 Busy."
            ),
            (
                .httpStatus(
                    HTTPStatusFailure(
                        status: HTTPResponse.Status(code: 599), headerFields: [:], body: Data(), serverError: nil)),
                "The server answered 599."
            ),
            (
                .httpStatus(
                    HTTPStatusFailure(
                        status: .notFound, headerFields: [:], body: Data(),
                        serverError: ServerError(code: "not_found", message: "No such thing."))),
                "No such thing (HTTP 404, not_found)."
            ),
        ])
    func exactTexts(error: NetworkError, text: String) {
        #expect(error.description == text)
        #expect(error.localizedDescription == text)
    }
}
