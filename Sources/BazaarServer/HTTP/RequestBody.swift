import BazaarAPI
import Foundation
import Hummingbird

/// Reads request bodies with a size limit and a media-type check, and decodes JSON bodies.
enum RequestBody {
    /// The largest JSON body any route takes.
    static let jsonLimit = 64 * 1024
    /// The largest photo upload: 5 MiB.
    static let photoLimit = 5 * 1024 * 1024
    /// One decoder for every request: made once, not per body (Foundation's `JSONDecoder` is
    /// `Sendable` and keeps no state between calls).
    private static let decoder = BazaarJSON.makeDecoder()

    /// Decodes a JSON body: 415 when not JSON, 413 over the limit, 400 when it is not the expected shape.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int = jsonLimit) async throws -> T {
        guard let contentType = request.headers[.contentType], Self.isJSON(contentType) else {
            throw APIError.unsupportedMediaType("application/json")
        }
        let data = try await bytes(of: request, limit: limit)
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw APIError.badRequest("malformed_body", Self.describe(error))
        } catch {
            throw APIError.badRequest("malformed_body", "The body is not valid JSON.")
        }
    }

    /// The raw body, at most `limit` bytes (413 beyond).
    static func bytes(of request: Request, limit: Int) async throws -> Data {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError.tooLarge(limit: limit)
        }
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch {
            throw APIError.tooLarge(limit: limit)
        }
    }

    /// Whether a `Content-Type` value is JSON (`application/json` or `application/*+json`, any parameters).
    static func isJSON(_ contentType: String) -> Bool {
        let mediaType = mediaTypeOnly(contentType)
        return mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    /// The media type without parameters and without the optional whitespace around it, lower-cased.
    static func mediaTypeOnly(_ contentType: String) -> String {
        contentType[..<(contentType.firstIndex(of: ";") ?? contentType.endIndex)].trimmingHTTPWhitespace.lowercased()
    }

    /// A sentence about what was wrong with the shape, naming the field, never echoing values.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context.codingPath)
            return "The body is missing the field \(parent.isEmpty ? "" : parent + ".")\(key.stringValue)."
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "The field \(path(context.codingPath)) has the wrong type."
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "The body is not valid JSON." : "The field \(path(context.codingPath)) is malformed."
        @unknown default:
            return "The body does not have the expected shape."
        }
    }
}
