import ArgumentParser
import BazaarTelemetry
import Dependencies
import Foundation
import Networking
import TerminalUI
import Tracing

/// Runs a command body: builds its ``AppContext`` and turns any failure into one line on stderr and
/// its exit code (see ``AppError``). With a collector named in the environment, the run's requests
/// are traced (``AppTracing``) and the spans sent before it returns.
enum AppCommand {
    static func run(_ options: GlobalOptions, _ body: (AppContext) async throws -> Void) async throws {
        let tracing: AppTracing?
        do {
            tracing = try AppTracing.start()
        } catch {
            throw report(AppError(.usage, error.description))
        }
        do {
            try await run(options, tracer: tracing?.tracer, body)
        } catch {
            await tracing?.finish()
            throw error
        }
        await tracing?.finish()
    }

    private static func run(
        _ options: GlobalOptions, tracer: (any Tracer)?, _ body: (AppContext) async throws -> Void
    ) async throws {
        do {
            let context = try AppContext(options: options, tracer: tracer)
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
