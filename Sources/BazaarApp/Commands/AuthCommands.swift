import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Foundation
import Networking
import Session
import TerminalUI

/// Reads a password: without echo on a terminal, or the first line of standard input for scripts.
private func readPassword() throws -> String {
    guard let password = TerminalInput.secret(prompt: "Password: "), !password.isEmpty else {
        throw AppError(.usage, "no password given: type it at the prompt, or pipe it on standard input")
    }
    return password
}

/// Reads the password, starts a session with it (a spinner titled `title` turning meanwhile),
/// remembers the user on this device and says who is now signed in.
private func signIn(
    _ title: String, verb: String, in context: AppContext,
    _ start: @escaping @Sendable (String) async throws -> UserSession
) async throws {
    let password = try readPassword()
    let session = try await context.output.loading(title) { try await start(password) }
    let user = await session.user.user
    context.services.remember(user)
    if context.json { return try context.printJSON(user) }
    context.output.write("✓ \(verb) as ".consoleText(.success) + Formats.person(user).consoleText(.heading))
}

/// `bazaar register USERNAME --name NAME`.
struct RegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register", abstract: "Create an account and sign in.",
        discussion: """
            The password is read without echo, or from standard input when it is not a terminal.

            Examples:
              bazaar register ada --name "Ada Lovelace"
              echo 's3cret-pass' | bazaar register ada --name "Ada Lovelace" --json
            """)

    @Argument(help: "3 to 32 of a-z, 0-9, _ and .") var username: String
    @Option(help: "The name others see.") var name: String
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await AppCommand.run(options) { context in
            try await signIn("Creating your account", verb: "Registered and signed in", in: context) {
                [username, name] password in
                try await context.services.starter.register(username: username, password: password, displayName: name)
            }
        }
    }
}

/// `bazaar login USERNAME`.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in.",
        discussion: """
            The password is read without echo, or from standard input when it is not a terminal.
            A wrong username or password exits with 77.

            Examples:
              bazaar login ada
              printf '%s\\n' "$BAZAAR_PASSWORD" | bazaar login ada --json
            """)

    @Argument(help: "Your username.") var username: String
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await AppCommand.run(options) { context in
            try await signIn("Signing in", verb: "Signed in", in: context) { [username] password in
                do {
                    return try await context.services.starter.login(username: username, password: password)
                } catch let error as NetworkError where error.statusCode == 401 {
                    throw AppError(.auth, "wrong username or password")
                }
            }
        }
    }
}

/// `bazaar logout`.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Sign out: revoke the session, delete the tokens and this user's cache.",
        discussion: """
            Signing out works offline too: the tokens and cache are removed here either way.
            Messages still queued stay in this user's outbox until they sign in again.

            Examples:
              bazaar logout
            """)

    @OptionGroup var options: GlobalOptions

    /// What logging out did, for `--json`.
    struct Outcome: Encodable {
        var signedOut: Bool
        var revokedOnServer: Bool
    }

    func run() async throws {
        try await AppCommand.run(options) { context in
            guard let session = try await context.start() else {
                if context.json { return try context.printJSON(Outcome(signedOut: false, revokedOnServer: false)) }
                return context.output.write("Nobody is signed in.".consoleText(.muted))
            }
            let outcome = await session.logout()
            context.services.forgetUser()
            if context.json {
                return try context.printJSON(Outcome(signedOut: true, revokedOnServer: outcome.revokedOnServer))
            }
            context.output.write("✓ Signed out.".consoleText(.success))
            if !outcome.revokedOnServer {
                context.output.write(
                    "  The server could not be reached; the session was removed from this machine.".consoleText(
                        .warning))
            }
        }
    }
}

/// `bazaar whoami`.
struct WhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami", abstract: "Show who is signed in.",
        discussion: """
            Exits with 77 when nobody is signed in.

            Examples:
              bazaar whoami
              bazaar whoami --json | jq -r .id
            """)

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await AppCommand.run(options) { context in
            let session = try await context.startSignedIn()
            let user = await session.user.user
            if context.json { return try context.printJSON(user) }
            context.output.write(Formats.person(user).consoleText(.heading) + "  " + user.id.consoleText(.muted))
        }
    }
}
