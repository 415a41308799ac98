import Foundation
import HTTPTypes
import Logging
import Networking
import Synchronization
import TestSupport
import Testing

/// Remembers the status of every response it sees.
final class StatusRecorder: RequestInterceptor {
    private let statuses = Mutex([Int]())
    var seen: [Int] { statuses.withLock { $0 } }

    func didReceive(_ response: TransportResponse, for request: TransportRequest) async {
        statuses.withLock { $0.append(response.status.code) }
    }
}

/// Refuses every request.
struct Refuser: RequestInterceptor {
    struct Refused: Error {}
    func adapt(_ request: TransportRequest) async throws -> TransportRequest { throw Refused() }
}

@Suite("Interceptors and logging")
struct InterceptorAndLoggingTests {
    @Test("interceptors add headers before sending and see every response after")
    func interceptorsAdaptAndObserve() async throws {
        try await KitFixture.with { fixture in
            let recorder = StatusRecorder()
            let client = fixture.client(
                interceptors: [HeaderInterceptor([.userAgent: "Bazaar/1.0"]), recorder])
            let echo = try await client.send(Get<Echo>(path: "/echo"))
            #expect(echo.headers["user-agent"] == "Bazaar/1.0")
            await #expect(throws: NetworkError.self) { try await client.send(Get<Echo>(path: "/status/418")) }
            #expect(recorder.seen == [200, 418])
        }
    }

    @Test("an interceptor that throws stops the request with a typed error")
    func throwingInterceptorStopsRequest() async throws {
        try await KitFixture.with { fixture in
            await #expect {
                try await fixture.client(interceptors: [Refuser()]).send(Get<Echo>(path: "/echo"))
            } throws: { error in
                guard case NetworkError.requestBuildFailed(.interceptorFailed) = error else { return false }
                return true
            }
            #expect(fixture.hits.count("echo") == 0)
        }
    }

    @Test("logs method, path, status and duration; never tokens, passwords or cookies")
    func logsWithoutSecrets() async throws {
        try await KitFixture.with { fixture in
            let capture = LogCapture()
            let performer = NetworkRequestPerformer(logger: capture.logger())
            let client = APIClient(baseURL: fixture.baseURL, performer: performer)
            let request = Send<Data>(
                path: "/tokens", method: .post,
                parameters: .json(
                    ["password": "hunter2-secret", "refreshToken": "rt-secret"], query: ["token": "qs-secret"]),
                headers: ["Authorization": "Bearer at-secret", "Cookie": "sid=cookie-secret"])
            let answer = try await client.send(request)
            #expect(String(decoding: answer, as: UTF8.self).contains("at-resp-secret"), "the caller gets the real body")
            let text = capture.all.joined(separator: "\n")
            #expect(text.contains("POST /tokens?token=[REDACTED] → 200"))
            #expect(text.contains(#""name":"ada""#), "trace logs keep what is not secret")
            #expect(text.contains("duration_ms="))
            #expect(text.contains("[REDACTED]"))
            #expect(
                text.contains("curl -X POST '\(fixture.baseURL.absoluteString)/tokens?token=[REDACTED]'"),
                "the sent request as curl")
            let secrets = [
                "hunter2-secret", "rt-secret", "qs-secret", "at-secret", "cookie-secret", "at-resp-secret",
                "rt-resp-secret",
            ]
            for secret in secrets {
                #expect(!text.contains(secret), "\(secret) leaked into the log")
            }
        }
    }

    @Test("redaction hides sensitive JSON fields at any depth and keeps the rest")
    func redactsNestedJSON() {
        let body = Data(#"{"user":{"name":"ada","tokens":{"accessToken":"a"}},"items":[{"password":"p"}]}"#.utf8)
        let text = Redaction.body(body)
        #expect(text == #"{"items":[{"password":"[REDACTED]"}],"user":{"name":"ada","tokens":"[REDACTED]"}}"#)
        #expect(Redaction.body(Data([0xFF, 0x00])) == "<2 bytes>")
    }
}
