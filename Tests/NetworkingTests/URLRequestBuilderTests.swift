import Foundation
import FoundationNetworking
import HTTPTypes
import Networking
import Testing

#if canImport(FoundationNetworking)
#endif

@Suite("URLRequestBuilder")
struct URLRequestBuilderTests {
    let base = URL(string: "https://api.example.com:8443/api/")!

    struct Note: Encodable, Sendable {
        var title: String
        var createdAt: Date
    }

    @Test("joins the path below the base URL's own path and appends the encoded query")
    func joinsPathAndQuery() throws {
        let request = try URLRequestBuilder(baseURL: base, path: "/v1/products/a b")
            .set(parameters: .url(["query": "red shoes", "limit": 5]))
            .build()
        #expect(request.head.scheme == "https")
        #expect(request.head.authority == "api.example.com:8443")
        #expect(request.head.path == "/api/v1/products/a%20b?query=red%20shoes&limit=5")
        #expect(
            request.url?.absoluteString
                == "https://api.example.com:8443/api/v1/products/a%20b?query=red%20shoes&limit=5")
        #expect(request.head.method == .get)
        #expect(request.head.headerFields[.accept] == "application/json")
        #expect(request.body == nil)
    }

    @Test("each set returns a changed copy and leaves the original as it was")
    func builderIsAValue() throws {
        let original = URLRequestBuilder(baseURL: base, path: "/a")
        let changed = original.set(method: .delete).set(path: "/b").adding(header: "X-Trace", value: "1")
        #expect(original.method == .get && original.path == "/a" && original.headers.isEmpty)
        let built = try changed.build()
        #expect(built.head.method == .delete)
        #expect(built.head.path == "/api/b")
        #expect(built.head.headerFields[HTTPField.Name("X-Trace")!] == "1")
    }

    @Test("a JSON body is the encoder's bytes with ISO 8601 dates and a JSON content type")
    func encodesJSONBody() async throws {
        let note = Note(title: "Lamp & chair", createdAt: Date(timeIntervalSince1970: 0))
        let request = try URLRequestBuilder(baseURL: base, path: "/notes").set(method: .post)
            .set(parameters: .json(note)).build()
        let body = try #require(request.body)
        let text = String(decoding: try await body.collect(), as: UTF8.self)
        #expect(text.contains("\"createdAt\":\"1970-01-01T00:00:00Z\""))
        #expect(text.contains("\"title\":\"Lamp & chair\""))
        #expect(request.head.headerFields[.contentType] == "application/json; charset=utf-8")
    }

    @Test("a form body is form-encoded with its content type")
    func encodesFormBody() async throws {
        let request = try URLRequestBuilder(baseURL: base, path: "/login").set(method: .post)
            .set(parameters: .form(["user": "ada lovelace", "pass": "p&ss=1"])).build()
        #expect(try await request.body?.collect() == Data("user=ada+lovelace&pass=p%26ss%3D1".utf8))
        #expect(request.head.headerFields[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test("raw bytes go as they are with their media type; a header the caller set wins")
    func rawBodyKeepsMediaType() async throws {
        let bytes = Data([0xFF, 0xD8, 0xFF, 0x00])
        let request = try URLRequestBuilder(baseURL: base, path: "/photo").set(method: .put)
            .set(parameters: .raw(bytes, mediaType: .jpeg)).build()
        #expect(try await request.body?.collect() == bytes)
        #expect(request.head.headerFields[.contentType] == "image/jpeg")
        let overridden = try URLRequestBuilder(baseURL: base, path: "/photo").set(method: .put)
            .set(headers: ["Content-Type": "image/png"]).set(parameters: .raw(bytes, mediaType: .jpeg)).build()
        #expect(overridden.head.headerFields[.contentType] == "image/png")
    }

    @Test("a base URL that is not absolute http(s) is a typed error naming it")
    func rejectsBadBaseURL() {
        for bad in ["ftp://example.com", "/relative/path", "mailto:someone@example.com"] {
            #expect(throws: RequestBuildError.invalidBaseURL(bad)) {
                try URLRequestBuilder(baseURL: URL(string: bad)!, path: "/x").build()
            }
        }
    }

    @Test("a path with a query or fragment in it is a typed error")
    func rejectsQueryInPath() {
        #expect(throws: RequestBuildError.invalidPath("/x?y=1")) {
            try URLRequestBuilder(baseURL: base, path: "/x?y=1").build()
        }
    }

    @Test("a header value with CR or LF is refused (no header injection)")
    func rejectsHeaderInjection() {
        #expect(throws: RequestBuildError.invalidHeader(name: "X-Note")) {
            try URLRequestBuilder(baseURL: base, path: "/").adding(header: "X-Note", value: "a\r\nEvil: 1").build()
        }
        #expect(throws: RequestBuildError.invalidHeader(name: "Bad Name")) {
            try URLRequestBuilder(baseURL: base, path: "/").adding(header: "Bad Name", value: "1").build()
        }
    }

    @Test("a value JSON cannot encode is a typed error naming its type")
    func rejectsUnencodableJSON() {
        #expect {
            try URLRequestBuilder(baseURL: base, path: "/").set(method: .post)
                .set(parameters: .json(["price": Double.nan])).build()
        } throws: { error in
            guard case RequestBuildError.encodingFailed(let type, _) = error else { return false }
            return type.contains("Dictionary")
        }
    }

    @Test("builds a URLRequest for Apple-style callers, with body, method and headers")
    func buildsURLRequest() throws {
        var form = MultipartFormData(boundary: "B")
        form.append("v", name: "k")
        let request = try URLRequestBuilder(baseURL: base, path: "/up").set(method: .post)
            .set(parameters: .multipart(form)).adding(header: "X-Trace", value: "7").buildURLRequest(timeout: 12)
        #expect(request.url?.absoluteString == "https://api.example.com:8443/api/up")
        #expect(request.httpMethod == "POST")
        #expect(request.timeoutInterval == 12)
        #expect(request.value(forHTTPHeaderField: "X-Trace") == "7")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "multipart/form-data; boundary=B")
        #expect(
            request.httpBody == Data("--B\r\nContent-Disposition: form-data; name=\"k\"\r\n\r\nv\r\n--B--\r\n".utf8))
    }

    @Test("a URLRequest with a file part reads the file into its body")
    func buildsURLRequestWithFile() throws {
        let file = try TemporaryFile(bytes: 1000)
        var form = MultipartFormData(boundary: "B")
        form.appendFile(at: file.url, name: "f", filename: "f.bin")
        let request = try URLRequestBuilder(baseURL: base, path: "/up").set(method: .post)
            .set(parameters: .multipart(form)).buildURLRequest()
        let body = try #require(request.httpBody)
        #expect(body.range(of: try Data(contentsOf: file.url)) != nil)
    }
}
