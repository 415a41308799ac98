import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builds a request step by step (seed 004's builder, as a value type).
///
/// Each `set` returns a changed copy, so a half-built builder can be shared and reused safely.
/// `build()` produces a transport-neutral ``TransportRequest``; `buildURLRequest()` a `URLRequest`
/// for Apple-style callers. Every failure is a ``RequestBuildError`` that says what was wrong.
public struct URLRequestBuilder: Sendable {
    /// The server's base URL; the path is joined below its own path.
    public var baseURL: URL
    /// The path below the base URL.
    public var path: String
    /// The HTTP method.
    public var method: HTTPMethod = .get
    /// Extra header fields.
    public var headers: [String: String] = [:]
    /// The query and body.
    public var parameters: RequestParameters = .none
    /// The encoder for JSON bodies.
    public var jsonEncoder: JSONEncoder = URLRequestBuilder.defaultJSONEncoder

    /// An encoder writing ISO 8601 dates, as the Bazaar API and most JSON APIs expect.
    public static let defaultJSONEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// Starts a builder for `path` below `baseURL`.
    public init(baseURL: URL, path: String) {
        self.baseURL = baseURL
        self.path = path
    }

    /// Starts a builder from a typed request's path, method, headers and parameters.
    public init<Request: APIRequest>(baseURL: URL, request: Request) {
        self.init(baseURL: baseURL, path: request.path)
        method = request.method
        headers = request.headers
        parameters = request.parameters
    }

    /// A copy with another method.
    public func set(method: HTTPMethod) -> Self { with { $0.method = method } }
    /// A copy with another path.
    public func set(path: String) -> Self { with { $0.path = path } }
    /// A copy with these header fields (replacing the earlier ones).
    public func set(headers: [String: String]) -> Self { with { $0.headers = headers } }
    /// A copy with one more header field.
    public func adding(header name: String, value: String) -> Self { with { $0.headers[name] = value } }
    /// A copy with these parameters.
    public func set(parameters: RequestParameters) -> Self { with { $0.parameters = parameters } }
    /// A copy with another JSON encoder.
    public func set(jsonEncoder: JSONEncoder) -> Self { with { $0.jsonEncoder = jsonEncoder } }

    private func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }

    /// Builds the transport-neutral request.
    public func build() throws(RequestBuildError) -> TransportRequest {
        let target = try RequestTarget(baseURL: baseURL, path: path, query: parameters.query)
        var fields = HTTPFields()
        // Room for the caller's fields and those added on the way (Accept, Content-Type,
        // Authorization, User-Agent), so appending never grows the storage.
        fields.reserveCapacity(headers.count + 4)
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard let fieldName = HTTPField.Name(name), Self.isValidFieldValue(value) else {
                throw .invalidHeader(name: name)
            }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        if !fields.contains(.accept) {
            fields.append(Self.acceptJSON)
        }
        var body: HTTPBody?
        if let requestBody = parameters.body {
            let encoded = try encode(requestBody)
            body = encoded.body
            if fields[.contentType] == nil {
                fields[.contentType] = encoded.mediaType.rawValue
            }
        }
        let head = HTTPRequest(
            method: method.httpTypesMethod,
            scheme: target.scheme,
            authority: target.authority,
            path: target.pathAndQuery,
            headerFields: fields
        )
        return TransportRequest(head: head, body: body)
    }

    /// Builds a `URLRequest`; a streamed body (files) is read into memory here.
    ///
    /// Prefer ``build()`` with a transport for large uploads: it streams files from disk.
    public func buildURLRequest(timeout: TimeInterval = 60) throws(RequestBuildError) -> URLRequest {
        let request = try build()
        guard let url = request.url else { throw .invalidBaseURL(baseURL.absoluteString) }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = method.rawValue
        for field in request.head.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        if let body = request.body {
            switch body.storage {
            case .bytes(let data):
                urlRequest.httpBody = data
            case .stream:
                urlRequest.httpBody = try Self.readSynchronously(parameters.body)
            }
        }
        return urlRequest
    }

    private func encode(_ body: RequestBody) throws(RequestBuildError) -> (body: HTTPBody, mediaType: MediaType) {
        switch body {
        case .json(let value):
            do {
                return (.bytes(try jsonEncoder.encode(value)), .json)
            } catch {
                throw .encodingFailed(type: String(describing: type(of: value)), reason: "\(error)")
            }
        case .form(let fields):
            return (.bytes(Data(fields.percentEncoded(spaces: .plus).utf8)), .formURLEncoded)
        case .multipart(let form):
            return (try form.encoded(), form.mediaType)
        case .raw(let data, let mediaType):
            return (.bytes(data), mediaType)
        case .file(let url, let mediaType):
            let size: Int64
            do {
                size = try FileChunks.size(of: url)
            } catch {
                throw .unreadableFile(path: url.path, reason: error.localizedDescription)
            }
            return (.stream(length: size) { FileChunks.stream(of: url) }, mediaType)
        }
    }

    /// Reads a file-backed body into memory for `URLRequest.httpBody`.
    private static func readSynchronously(_ body: RequestBody?) throws(RequestBuildError) -> Data {
        switch body {
        case .file(let url, _):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw .unreadableFile(path: url.path, reason: error.localizedDescription)
            }
        case .multipart(let form):
            var data = Data()
            var inMemory = MultipartFormData(boundary: form.boundary)
            for part in form.parts {
                switch part.content {
                case .data(let bytes):
                    inMemory.appendPart(part, content: bytes)
                case .file(let url):
                    do {
                        inMemory.appendPart(part, content: try Data(contentsOf: url))
                    } catch {
                        throw .unreadableFile(path: url.path, reason: error.localizedDescription)
                    }
                }
            }
            if case .bytes(let bytes) = try inMemory.encoded().storage { data = bytes }
            return data
        case .json, .form, .raw, nil:
            return Data()
        }
    }

    /// `Accept: application/json`, made (and its value checked) once rather than per request.
    private static let acceptJSON = HTTPField(name: .accept, value: "application/json")

    /// Whether a header value is free of control characters (no CR/LF header injection).
    static func isValidFieldValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in byte == 0x09 || (byte >= 0x20 && byte != 0x7F) }
    }
}

extension MultipartFormData {
    /// Adds a copy of `part` whose content is the given bytes.
    mutating func appendPart(_ part: Part, content: Data) {
        if let filename = part.filename {
            append(content, name: part.name, filename: filename, mediaType: part.mediaType ?? .octetStream)
        } else {
            append(String(decoding: content, as: UTF8.self), name: part.name)
        }
    }
}
