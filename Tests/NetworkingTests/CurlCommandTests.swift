import Foundation
import HTTPTypes
import Networking
import NetworkingAsyncHTTPClient
import Synchronization
import TestSupport
import Testing

/// Hands requests to the real transport and keeps the last one: what the kit sent.
private final class RecordingTransport: HTTPTransport {
    private let base = AsyncHTTPClientTransport()
    private let last = Mutex<TransportRequest?>(nil)
    var sent: TransportRequest? { last.withLock { $0 } }

    func send(_ request: TransportRequest, options: TransferOptions) async throws(NetworkError) -> TransportResponse {
        last.withLock { $0 = request }
        return try await base.send(request, options: options)
    }
}

/// A request printed as a `curl` command: secrets redacted by default, and, with them included,
/// a command that the real `curl` runs to send the server what the kit sent.
@Suite("Requests as curl commands")
struct CurlCommandTests {
    /// What the kit sent through its performer for `request`, as the transport was handed it, and
    /// what the test server saw.
    static func sent(_ request: Send<Echo>, to fixture: KitFixture) async throws -> (TransportRequest, Echo) {
        let transport = RecordingTransport()
        let client = APIClient(baseURL: fixture.baseURL, performer: NetworkRequestPerformer(transport: transport))
        let echo = try await client.send(request)
        return (try #require(transport.sent), echo)
    }

    @Test(
        "with secrets included, curl sends what the kit sent: method, path, query, header fields and body, quotes and emoji included"
    )
    func curlReproducesTheRequest() async throws {
        try await KitFixture.with { fixture in
            let request = Send<Echo>(
                path: "/echo", method: .post,
                parameters: .init(
                    query: ["q": "it's a \"lamp\" & more 🪔", "token": "s3cret"],
                    body: .json(["title": "Lamp 'n' shade", "password": "hunter2"])),
                headers: ["Authorization": "Bearer abc.def", "X-Note": "O'Brien's $HOME `pwd`"])
            let (sent, kitSeen) = try await Self.sent(request, to: fixture)
            let command = CurlCommand(sent, secrets: .included)
            let curlSeen = try JSONDecoder().decode(Echo.self, from: try await shell(command.description))
            #expect(curlSeen.method == kitSeen.method)
            #expect(curlSeen.path == kitSeen.path)
            #expect(curlSeen.rawQuery == kitSeen.rawQuery)
            #expect(curlSeen.body == kitSeen.body && curlSeen.bodyLength == kitSeen.bodyLength)
            for field in sent.head.headerFields {
                #expect(
                    curlSeen.headers[field.name.canonicalName] == field.value,
                    "\(field.name): the server saw from curl what the kit sent")
            }
            #expect(kitSeen.headers["x-note"] == "O'Brien's $HOME `pwd`", "nothing was expanded by the shell")
        }
    }

    @Test("a binary body goes through printf's octal escapes and arrives byte for byte")
    func binaryBody() async throws {
        try await KitFixture.with { fixture in
            let bytes = Data((0...255).map(UInt8.init) + [0, 39, 92, 10])
            let request = Send<Echo>(
                path: "/echo", method: .put, parameters: .init(body: .raw(bytes, MediaType("application/octet-stream")))
            )
            let (sent, kitSeen) = try await Self.sent(request, to: fixture)
            let command = CurlCommand(sent, secrets: .included)
            #expect(command.standardInput == bytes)
            #expect(command.description.hasPrefix("printf '\\000\\001"))
            let curlSeen = try JSONDecoder().decode(Echo.self, from: try await shell(command.description))
            #expect(curlSeen.bodyLength == bytes.count && curlSeen.body == kitSeen.body)
            #expect(curlSeen.method == "PUT")
        }
    }

    @Test("by default the Authorization and Cookie values, secret query values and secret body fields are redacted")
    func secretsAreRedacted() throws {
        let request = try URLRequestBuilder(
            baseURL: try #require(URL(string: "http://127.0.0.1:8080")),
            request: Send<Echo>(
                path: "/v1/auth/refresh", method: .post,
                parameters: .init(
                    query: ["access_token": "q-secret", "page": "2"],
                    body: .json(["refreshToken": "r-secret", "username": "ada"])),
                headers: [
                    "Authorization": "Bearer a-secret", "Cookie": "session=c-secret", "Accept": "application/json",
                ])
        ).build()
        let line = CurlCommand(request).description
        for secret in ["q-secret", "r-secret", "a-secret", "c-secret"] {
            #expect(!line.contains(secret), "\(secret) leaked: \(line)")
        }
        #expect(line.contains("page=2") && line.contains("ada") && line.contains("'Accept: application/json'"))
        #expect(line.contains("'Authorization: [REDACTED]'"))
        #expect(line.hasPrefix("curl -X POST 'http://127.0.0.1:8080/v1/auth/refresh?"))
        #expect(CurlCommand(request, secrets: .included).description.contains("r-secret"))
    }

    @Test("a body streamed from disk is named in a comment, not read")
    func streamedBodyIsNotRead() throws {
        let request = TransportRequest(
            head: HTTPRequest(method: .post, scheme: "http", authority: "example.test", path: "/upload"),
            body: .stream(length: 1_048_576) { AsyncThrowingStream { $0.finish() } })
        let command = CurlCommand(request)
        #expect(
            command.description
                == "curl -X POST http://example.test/upload  # a body of 1048576 bytes streamed, not shown")
        #expect(command.standardInput == nil)
    }
}
