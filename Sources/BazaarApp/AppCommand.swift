import ArgumentParser
import Dependencies
import Foundation
import Networking
import TerminalUI

/// Runs a command body: builds its ``AppContext`` and turns any failure into one line on stderr and
/// its exit code (see ``AppError``).
enum AppCommand {
    static func run(_ options: GlobalOptions, _ body: (AppContext) async throws -> Void) async throws {
        do {
            let context = try AppContext(options: options)
            try await body(context)
            try await context.services.saveUnsavedTokens()
        } catch let error as AppError {
            throw report(error)
        } catch let error as NetworkError {
            throw report(AppError(error))
        } catch let error as DependencyError {
            throw report(AppError(.refused, "the app is wired wrongly: \(error)"))
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw report(AppError(.usage, error.message))
        } catch {
            throw report(AppError(.refused, "\(error)"))
        }
    }

    private static func report(_ error: AppError) -> ExitCode {
        // A server's message may be in it: no control character reaches the terminal.
        FileHandle.standardError.write(Data("bazaar: \(TerminalText.visible(error.description))\n".utf8))
        return error.exitCode
    }
}

extension ScreenState {
    /// The content, or the failure as an ``AppError`` (one line on stderr and its exit code).
    func content() throws(AppError) -> Content {
        switch self {
        case .presenting(let content): return content
        case .failed(let error): throw AppError(error)
        case .loading: throw AppError(.refused, "the screen is still loading")
        }
    }
}
