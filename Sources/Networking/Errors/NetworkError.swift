import Foundation
import HTTPTypes

/// Everything that can go wrong with a request, as cases a caller can act on.
///
/// `description` is a sentence for a person; it never contains tokens or other header values.
public enum NetworkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be reached (refused, unreachable, reset before an answer).
    case noConnection(reason: String)
    /// The request took longer than its timeout.
    case timedOut
    /// The task that made the request was cancelled.
    case cancelled
    /// The server answered with a status outside 2xx.
    case httpStatus(HTTPStatusFailure)
    /// The response body did not decode to the expected type.
    case decodingFailed(DecodingFailure)
    /// The request could not be built.
    case requestBuildFailed(RequestBuildError)
    /// The response body was larger than the client accepts (counted after decompression).
    case responseTooLarge(limit: Int)
    /// A compressed body could not be decoded, or inflated beyond the allowed ratio (a
    /// decompression bomb); the reason says which.
    case decompressionFailed(reason: String)
    /// The session is over (the refresh token was refused); the user must sign in again.
    case sessionExpired
    /// The server's certificate was refused (an unknown authority, a wrong name, or a key that
    /// matches none of the ``ServerTrust`` pins); the reason names which. Never retried: the
    /// same server would present the same certificate.
    case untrustedServer(reason: String)
    /// Any other transport failure, described.
    case transport(reason: String)

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .noConnection(let reason):
            "Could not connect to the server (\(Sentence.trimmed(reason))). Check that it is running and reachable."
        case .timedOut:
            "The server did not answer in time."
        case .cancelled:
            "The request was cancelled."
        case .httpStatus(let failure):
            failure.description
        case .decodingFailed(let failure):
            failure.description
        case .requestBuildFailed(let error):
            Sentence.end("The request could not be built: \(error.description)")
        case .responseTooLarge(let limit):
            "The response was larger than the \(limit) bytes this client accepts."
        case .decompressionFailed(let reason):
            Sentence.end("The compressed response could not be decoded: \(reason)")
        case .sessionExpired:
            "Your session has ended. Please sign in again."
        case .untrustedServer(let reason):
            Sentence.end("The server's certificate is not trusted: \(reason)")
        case .transport(let reason):
            Sentence.end("The request failed: \(reason)")
        }
    }

    /// The HTTP status, when the server answered.
    public var status: HTTPResponse.Status? {
        if case .httpStatus(let failure) = self { failure.status } else { nil }
    }

    /// Whether trying again later may succeed: the server was unreachable, slow, throttling (429),
    /// timing out a request (408) or failing on its side (5xx).
    public var isRetryable: Bool {
        switch self {
        case .noConnection, .timedOut:
            true
        case .httpStatus(let failure):
            failure.status.code == 408 || failure.status.code == 429 || failure.status.kind == .serverError
        default:
            false
        }
    }

    /// Whether the server was not reached at all (no connection, or no answer in time), as opposed
    /// to reached and refusing.
    public var isUnreachable: Bool {
        switch self {
        case .noConnection, .timedOut: true
        default: false
        }
    }

    /// The HTTP status code as a number, when the server answered.
    public var statusCode: Int? { status?.code }

    /// The server's error code (`"username_taken"`), when it sent one.
    public var serverCode: String? {
        if case .httpStatus(let failure) = self { failure.serverError?.code } else { nil }
    }
}

extension NetworkError: LocalizedError {
    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}

/// A non-2xx answer: its status, headers, raw body and, when present, the server's JSON error.
public struct HTTPStatusFailure: Sendable, Equatable, CustomStringConvertible {
    /// The status.
    public var status: HTTPResponse.Status
    /// The response header fields.
    public var headerFields: HTTPFields
    /// The raw body.
    public var body: Data
    /// The decoded `{"error": {"code", "message"}}` body, when the server sent one.
    public var serverError: ServerError?

    /// Makes a failure from a response.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields, body: Data, serverError: ServerError?) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.serverError = serverError
    }

    /// The status code as a number (`404`).
    public var statusCode: Int { status.code }

    /// The wait the server asked for in `Retry-After`, if any.
    public var retryAfter: Duration? {
        headerFields[.retryAfter].flatMap { RetryAfter.parse($0, now: Date()) }
    }

    /// The reason phrase the server sent, or the standard one for the code when it sent none
    /// (HTTP/2 has none): "Not Found" for 404; empty for a code without a standard phrase.
    public var reasonPhrase: String {
        if !status.reasonPhrase.isEmpty { return status.reasonPhrase }
        return ReasonPhrases.standard[status.code] ?? ""
    }

    /// A sentence for a person: the server's own message when there is one, otherwise the status
    /// ("The server answered 404 Not Found.").
    public var description: String {
        if let serverError {
            return Sentence.end("\(Sentence.trimmed(serverError.message)) (HTTP \(status.code), \(serverError.code))")
        }
        let phrase = reasonPhrase
        return "The server answered \(status.code)\(phrase.isEmpty ? "" : " \(phrase)")."
    }
}

/// The error a server puts in its body: `{"error": {"code": "snake_case", "message": "sentence"}}`.
public struct ServerError: Sendable, Hashable, Codable {
    /// A stable machine-readable code.
    public var code: String
    /// A sentence for a person.
    public var message: String

    /// Makes an error body.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    private struct Envelope: Decodable {
        var error: ServerError
    }

    /// Decodes the envelope `{"error": {...}}`; `nil` when the body is not of that shape.
    public static func decode(from body: Data) -> ServerError? {
        guard !body.isEmpty else { return nil }
        return try? JSONDecoder().decode(Envelope.self, from: body).error
    }
}

/// A body that did not decode, with the path to the field that was wrong.
public struct DecodingFailure: Sendable, Equatable, CustomStringConvertible {
    /// The expected type.
    public var type: String
    /// The path to the bad field, like `items[2].priceCents`; empty for the top level.
    public var path: String
    /// What was wrong there.
    public var reason: String

    /// Makes a failure from its parts.
    public init(type: String, path: String, reason: String) {
        self.type = type
        self.path = path
        self.reason = reason
    }

    /// Describes a `DecodingError` for `type`, naming the path of the bad field.
    public init(type: Any.Type, error: any Error) {
        self.type = String(describing: type)
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            path = Self.render(context.codingPath + [key])
            reason = "the field is missing"
        case DecodingError.typeMismatch(let expected, let context):
            path = Self.render(context.codingPath)
            reason = "expected \(expected): \(context.debugDescription)"
        case DecodingError.valueNotFound(let expected, let context):
            path = Self.render(context.codingPath)
            reason = "expected \(expected) but found null"
        case DecodingError.dataCorrupted(let context):
            path = Self.render(context.codingPath)
            reason = context.debugDescription
        default:
            path = ""
            reason = "\(error)"
        }
    }

    /// A sentence for a person.
    public var description: String {
        let place = path.isEmpty ? "" : " at \(path)"
        return Sentence.end("The response could not be read as \(type)\(place): \(reason)")
    }

    static func render(_ codingPath: [any CodingKey]) -> String {
        var rendered = ""
        for key in codingPath {
            if let index = key.intValue {
                rendered += "[\(index)]"
            } else {
                rendered += rendered.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return rendered
    }
}

/// Joins parts written by others (a server's message, a decoder's explanation) into one sentence
/// without doubled punctuation.
enum Sentence {
    /// `text` without trailing whitespace and full stops.
    static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last == "." || last.isWhitespace { text = text.dropLast() }
        return String(text)
    }

    /// `text` ending in exactly one full stop (or its own `!` or `?`).
    static func end(_ text: String) -> String {
        let trimmed = trimmed(text)
        if let last = trimmed.last, last == "!" || last == "?" { return trimmed }
        return trimmed + "."
    }
}
