import Networking

/// A failure as a screen shows it: what went wrong in words, and what the person can do next.
public struct ScreenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is, so a renderer can choose what to offer.
    public enum Kind: Sendable, Equatable {
        /// The server could not be reached or did not answer: try again later.
        case offline
        /// The thing asked for does not exist (or is not the person's to see).
        case notFound
        /// The session ended: sign in again.
        case signedOut
        /// The input was refused; the message says which rule.
        case invalidInput
        /// Too many attempts: wait, then try again.
        case throttled
        /// Anything else.
        case other
    }

    /// What kind of failure this is.
    public var kind: Kind
    /// A sentence for a person.
    public var message: String

    /// Makes an error.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// What the person can do next, in words.
    public var suggestion: String {
        switch kind {
        case .offline: "Check your connection and try again."
        case .notFound: "It may have been removed; go back and pick another."
        case .signedOut: "Sign in again."
        case .invalidInput: "Change what you entered and try again."
        case .throttled: "Wait a moment, then try again."
        case .other: "Try again; if it keeps happening, tell us."
        }
    }

    /// The message and the suggestion.
    public var description: String { "\(message) \(suggestion)" }

    /// The screen's view of a network failure.
    public init(_ error: NetworkError) {
        switch error {
        case .noConnection, .timedOut:
            self.init(kind: .offline, message: "The server could not be reached.")
        case .sessionExpired:
            self.init(kind: .signedOut, message: "Your session has ended.")
        case .httpStatus(let failure):
            let message = failure.serverError?.message ?? failure.description
            switch failure.statusCode {
            case 401: self.init(kind: .signedOut, message: message)
            case 404: self.init(kind: .notFound, message: message)
            case 400, 409, 413, 415, 422: self.init(kind: .invalidInput, message: message)
            case 429: self.init(kind: .throttled, message: message)
            case 500...: self.init(kind: .offline, message: "The server is having trouble.")
            default: self.init(kind: .other, message: message)
            }
        default:
            self.init(kind: .other, message: error.description)
        }
    }
}
