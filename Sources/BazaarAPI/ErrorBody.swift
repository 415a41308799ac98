import Foundation

/// The body of every error response: `{"error": {"code": "...", "message": "..."}}`.
public struct ErrorBody: Codable, Sendable, Equatable {
    /// The error itself.
    public var error: Detail

    /// A machine-readable code and a sentence for people.
    public struct Detail: Codable, Sendable, Equatable {
        /// A stable `snake_case` code, for example `invalid_field` or `not_found`.
        public var code: String
        /// A human sentence; never contains secrets.
        public var message: String

        /// Creates an error detail.
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// Creates an error body.
    public init(code: String, message: String) {
        self.error = Detail(code: code, message: message)
    }
}

/// The answer of `GET /health`.
public struct HealthStatus: Codable, Sendable, Equatable {
    /// `ok` while the server can serve.
    public var status: String

    /// Creates a health status.
    public init(status: String) {
        self.status = status
    }
}
