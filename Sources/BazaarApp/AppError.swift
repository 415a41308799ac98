import ArgumentParser
import Dependencies
import Networking

/// A failure the app reports as one line on stderr with a distinct exit code, so scripts can tell
/// a usage mistake from a sign-in problem from a server that is down.
///
/// | exit | meaning |
/// |---|---|
/// | 1 | refused for another reason |
/// | 64 | usage: a missing or malformed argument |
/// | 65 | invalid input: the server refused a field (422, 409, …) |
/// | 66 | not found: no such product, user or conversation |
/// | 69 | the server could not be reached |
/// | 74 | a file the app keeps could not be written (the work was done; the warning says what is lost) |
/// | 75 | throttled: try again later |
/// | 77 | not signed in, wrong password, or the session ended |
struct AppError: Error, Equatable, CustomStringConvertible {
    /// What kind of failure, which decides the exit code.
    enum Kind: Equatable {
        case usage, invalidInput, notFound, unreachable, storage, throttled, auth, refused
    }

    /// What kind of failure.
    var kind: Kind
    /// The line printed on stderr.
    var description: String

    /// Makes an error of `kind` saying `message`.
    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        description = message
    }

    /// Nobody is signed in.
    static let signedOut = AppError(.auth, "not signed in: run 'bazaar login USERNAME' first")

    /// A failed screen state, as the app reports it.
    init(_ error: ScreenError) {
        let kind: Kind =
            switch error.kind {
            case .offline: .unreachable
            case .notFound: .notFound
            case .signedOut: .auth
            case .invalidInput: .invalidInput
            case .throttled: .throttled
            case .other: .refused
            }
        self.init(kind, error.kind == .signedOut ? "\(error.message) Run 'bazaar login USERNAME'." : error.description)
    }

    /// A form refused beside its fields, as one line in the fields' order: `price: Enter a price…; title: …`.
    init<Field: CaseIterable & RawRepresentable & Hashable>(fieldErrors: [Field: String])
    where Field.RawValue == String {
        let errors = Field.allCases.compactMap { field in fieldErrors[field].map { "\(field.rawValue): \($0)" } }
        self.init(.invalidInput, errors.joined(separator: "; "))
    }

    /// A network failure, as the app reports it.
    init(_ error: NetworkError) {
        self.init(ScreenError(error))
    }

    /// The process's exit code.
    var exitCode: ExitCode {
        switch kind {
        case .refused: ExitCode(1)
        case .usage: ExitCode(64)
        case .invalidInput: ExitCode(65)
        case .notFound: ExitCode(66)
        case .unreachable: ExitCode(69)
        case .storage: ExitCode(74)
        case .throttled: ExitCode(75)
        case .auth: ExitCode(77)
        }
    }
}
