import ArgumentParser
import BazaarAPI
import Dependencies
import Foundation
import Session
import TerminalUI
import Tracing

/// Everything one command needs for one run: where to draw, the client stack, and the modules
/// resolved through ``Dependencies`` once the session is known.
struct AppContext: Sendable {
    let options: GlobalOptions
    let services: AppServices
    let output: TerminalOutput
    let dependencies: Dependencies

    /// Builds the context from the command line and the environment; with a `tracer`, every
    /// request opens a client span and carries `traceparent`.
    init(options: GlobalOptions, dependencies: Dependencies = .shared, tracer: (any Tracer)? = nil) throws {
        self.options = options
        let environment: AppEnvironment
        do {
            environment = try AppEnvironment.resolve(options)
        } catch {
            throw AppError(.usage, "\(error)")
        }
        services = try AppServices(environment: environment, tracer: tracer)
        output = TerminalOutput(
            capabilities: .detect(noColorFlag: options.noColor, environment: ProcessInfo.processInfo.environment))
        self.dependencies = dependencies
    }

    /// The ids shown on this device, so commands take unique prefixes.
    var ids: KnownIDs { KnownIDs(file: services.environment.knownIDsFile) }

    /// Whether output is JSON for scripts.
    var json: Bool { options.json }

    /// Resumes the stored session (if any), registers the modules and validates them.
    @discardableResult
    func start() async throws -> UserSession? {
        let session = try await services.restoreSession()
        try wire(session)
        return session
    }

    /// Like ``start()``, but a run that needs someone signed in fails with exit 77 when nobody is.
    @discardableResult
    func startSignedIn() async throws -> UserSession {
        guard let session = try await start() else { throw AppError.signedOut }
        return session
    }

    /// Registers the modules for `session` and validates them (after a login, say).
    func wire(_ session: UserSession?) throws {
        CompositionRoot.registerDependencies(in: dependencies, services: services, session: session)
        try CompositionRoot.validate(dependencies, signedIn: session != nil)
    }

    /// Writes `value` as JSON (pretty, keys sorted) for scripts.
    func printJSON(_ value: some Encodable) throws {
        let encoder = BazaarJSON.makeEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        output.writePlain(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
