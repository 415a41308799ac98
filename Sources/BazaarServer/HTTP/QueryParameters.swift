import Hummingbird

/// Reads and checks query parameters.
///
/// The query string is parsed on each call that takes a request: a route reading several
/// parameters parses once (``ParsedQuery``) and passes it to the overloads that take it.
enum QueryParameters {
    /// A request's query parameters, parsed.
    typealias Parsed = ParsedQuery

    /// `limit` in 1...100 (default `defaultValue`); 422 outside, or when it is not a number.
    static func limit(_ request: Request, default defaultValue: Int = 20) throws -> Int {
        try limit(ParsedQuery(request), default: defaultValue)
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
        string(ParsedQuery(request), name)
    }

    /// A string parameter from parsed parameters.
    static func string(_ parameters: Parsed, _ name: String) -> String? {
        parameters[name].map(String.init)
    }

    /// A cursor parameter; an empty one means the first page, like an absent one.
    static func cursor(_ request: Request, _ name: String) -> String? {
        cursor(ParsedQuery(request), name)
    }

    /// A cursor parameter from parsed parameters.
    static func cursor(_ parameters: Parsed, _ name: String) -> String? {
        guard let value = string(parameters, name), !value.isEmpty else { return nil }
        return value
    }
}
