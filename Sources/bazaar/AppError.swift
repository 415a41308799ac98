import ArgumentParser
import Networking

/// A failure the app reports as one line on stderr with a distinct exit code.
enum AppError: Error, CustomStringConvertible {
    /// Nobody is signed in (or the session ended).
    case signedOut
    /// The server could not be reached.
    case unreachable(String)
    /// The server refused the request.
    case refused(String)

    /// Maps a network failure.
    init(_ error: NetworkError) {
        switch error {
        case .sessionExpired: self = .signedOut
        case .noConnection, .timedOut: self = .unreachable(error.description)
        default:
            if error.statusCode == 401 { self = .signedOut } else { self = .refused(error.description) }
        }
    }

    /// The line printed on stderr.
    var description: String {
        switch self {
        case .signedOut: "not signed in: run 'bazaar login' first"
        case .unreachable(let reason): reason
        case .refused(let reason): reason
        }
    }

    /// The exit code: 77 for sign-in problems, 69 when the server is unreachable, 1 otherwise
    /// (argument errors exit 64, from the argument parser).
    var exitCode: ExitCode {
        switch self {
        case .signedOut: ExitCode(77)
        case .unreachable: ExitCode(69)
        case .refused: ExitCode(1)
        }
    }
}
