import Foundation
import Hummingbird

/// Reads and checks query parameters.
enum QueryParameters {
    /// `limit` in 1...100 (default `defaultValue`); 422 outside, or when it is not a number.
    static func limit(_ request: Request, default defaultValue: Int = 20) throws -> Int {
        guard let text = request.uri.queryParameters["limit"] else { return defaultValue }
        guard let value = Int(String(text)), (1...100).contains(value) else {
            throw APIError.invalidField("limit", "must be an integer from 1 to 100")
        }
        return value
    }

    /// A string parameter, or `nil` when absent.
    static func string(_ request: Request, _ name: String) -> String? {
        request.uri.queryParameters[name[...]].map(String.init)
    }

    /// A cursor parameter; an empty one means the first page, like an absent one.
    static func cursor(_ request: Request, _ name: String) -> String? {
        guard let value = string(request, name), !value.isEmpty else { return nil }
        return value
    }
}
