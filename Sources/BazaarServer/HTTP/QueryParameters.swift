import Foundation
import Hummingbird
import HummingbirdCore

/// Reads and checks query parameters.
///
/// Hummingbird parses (and percent-decodes) the query string on every read of
/// `uri.queryParameters`: a route reading several parameters parses once and passes the
/// ``Parsed`` dictionary to the overloads that take it.
enum QueryParameters {
    /// A request's query parameters, parsed.
    typealias Parsed = FlatDictionary<Substring, Substring>

    /// `limit` in 1...100 (default `defaultValue`); 422 outside, or when it is not a number.
    static func limit(_ request: Request, default defaultValue: Int = 20) throws -> Int {
        try limit(request.uri.queryParameters, default: defaultValue)
    }

    /// `limit` from parsed parameters.
    static func limit(_ parameters: Parsed, default defaultValue: Int = 20) throws -> Int {
        guard let text = parameters["limit"] else { return defaultValue }
        guard let value = Int(text), (1...100).contains(value) else {
            throw APIError.invalidField("limit", "must be an integer from 1 to 100")
        }
        return value
    }

    /// A string parameter, or `nil` when absent.
    static func string(_ request: Request, _ name: String) -> String? {
        string(request.uri.queryParameters, name)
    }

    /// A string parameter from parsed parameters.
    static func string(_ parameters: Parsed, _ name: String) -> String? {
        parameters[name[...]].map(String.init)
    }

    /// A cursor parameter; an empty one means the first page, like an absent one.
    static func cursor(_ request: Request, _ name: String) -> String? {
        cursor(request.uri.queryParameters, name)
    }

    /// A cursor parameter from parsed parameters.
    static func cursor(_ parameters: Parsed, _ name: String) -> String? {
        guard let value = string(parameters, name), !value.isEmpty else { return nil }
        return value
    }
}
