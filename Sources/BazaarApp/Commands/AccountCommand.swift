import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// `bazaar account`: the signed-in person's own account.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Your account: sessions, people blocked, password, export and deletion.",
        discussion: """
            Passwords are read without echo, or line by line from standard input when it is not a
            terminal. A wrong password exits with 77.

            Examples:
              bazaar account
              bazaar account password
              bazaar account end-session 5e0c…
              bazaar account end-others
              bazaar account export --to ~/bazaar.zip
              bazaar account delete
            """,
        subcommands: [Show.self, Password.self, EndSession.self, EndOthers.self, Export.self, Delete.self],
        defaultSubcommand: Show.self)

    /// Runs `action` on the account screen and shows what it left.
    static func run(_ action: @escaping @Sendable (AppContext) throws -> AccountAction, _ options: GlobalOptions)
        async throws
    {
        try await AppCommand.run(options) { context in
            try await context.startSignedIn()
            let logic = try context.dependencies.accountModule.accountScreen().logic
            let action = try action(context)
            let content = try await context.output.loading("Working on your account") { await logic.send(action) }
                .content()
            if !content.fieldErrors.isEmpty {
                let failure = AppError(fieldErrors: content.fieldErrors)
                // A password refused is the owner's proof failing: the sign-in exit code.
                throw content.fieldErrors[.newPassword] == nil ? AppError(.auth, failure.description) : failure
            }
            if content.deleted { context.services.forgetUser() }
            context.ids.record(content.sessions.map(\.id) + content.blocked.map(\.id))
            if context.json { return try context.printJSON(AccountJSON(content)) }
            context.output.write(AccountRenderer().lines(for: content, width: context.output.capabilities.width))
        }
    }

    /// A password from the prompt (without echo) or the next line of standard input.
    static func secret(_ prompt: String) throws -> String {
        guard let value = TerminalInput.secret(prompt: prompt), !value.isEmpty else {
            throw AppError(.usage, "no password given: type it at the prompt, or pipe it on standard input")
        }
        return value
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Where you are signed in, and whom you blocked.")
        @OptionGroup var options: GlobalOptions

        func run() async throws { try await AccountCommand.run({ _ in .load }, options) }
    }

    struct Password: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "password", abstract: "Change your password; every other session is signed out.",
            discussion: "Reads the current password, then the new one (8 to 128 characters).")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AccountCommand.run(
                { _ in
                    .changePassword(
                        current: try AccountCommand.secret("Current password: "),
                        new: try AccountCommand.secret("New password: "))
                }, options)
        }
    }

    struct EndSession: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "end-session", abstract: "Sign one of your sessions out (an id 'bazaar account' shows).")
        @Argument(help: "The session's id, or a unique prefix of one shown here.") var session: String
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AccountCommand.run(
                { [session] context in .endSession(id: try context.ids.resolve(session, what: "session")) }, options)
        }
    }

    struct EndOthers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "end-others", abstract: "Sign out every session but this one.")
        @OptionGroup var options: GlobalOptions

        func run() async throws { try await AccountCommand.run({ _ in .endOtherSessions }, options) }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Save everything of yours as a ZIP archive.",
            discussion: "An existing file is not overwritten unless --force is given.")
        @Option(help: "Where to write the archive.") var to = "bazaar-export.zip"
        @Flag(help: "Overwrite the file if it exists.") var force = false
        @OptionGroup var options: GlobalOptions

        /// What the export wrote, for `--json`.
        struct Written: Encodable {
            var path: String
            var bytes: Int
        }

        func run() async throws {
            try await AppCommand.run(options) { context in
                try await context.startSignedIn()
                let url = URL(fileURLWithPath: (to as NSString).expandingTildeInPath)
                guard force || !FileManager.default.fileExists(atPath: url.path) else {
                    throw AppError(.usage, "\(url.path) exists; give --force to overwrite it")
                }
                let module = try context.dependencies.accountModule
                let archive = try await context.output.loading("Exporting your account") {
                    do throws(ScreenError) {
                        return try await module.exportArchive()
                    } catch {
                        throw AppError(error)
                    }
                }
                do {
                    try archive.write(to: url, options: .atomic)
                } catch {
                    throw AppError(.storage, "could not write \(url.path): \(error.localizedDescription)")
                }
                if context.json { return try context.printJSON(Written(path: url.path, bytes: archive.count)) }
                context.output.write(
                    "✓ Exported to ".consoleText(.success) + url.path.consoleText(.heading)
                        + " (\(archive.count) bytes)".consoleText(.muted))
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete your account for good (your password is asked).",
            discussion: """
                Your listings, photos, saves and blocks are deleted; others keep their conversations
                with you, where you appear as "Deleted user". Your username is never given again.
                """)
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AccountCommand.run(
                { _ in .delete(password: try AccountCommand.secret("Password (to delete your account): ")) }, options)
        }
    }
}

/// The account screen for `--json`.
struct AccountJSON: Encodable {
    var sessions: [AccountSession]
    var blocked: [User]
    var notice: String?
    var deleted: Bool

    init(_ content: AccountContent) {
        sessions = content.sessions
        blocked = content.blocked
        notice = content.notice?.sentence
        deleted = content.deleted
    }
}

/// Draws the account screen; no logic.
struct AccountRenderer {
    func lines(for content: AccountContent, width: Int?) -> [ConsoleText] {
        if content.deleted {
            return ["✓ Your account is deleted. Goodbye.".consoleText(.success)]
        }
        var lines: [ConsoleText] = []
        if let notice = content.notice { lines += ["✓ \(notice.sentence)".consoleText(.success), ""] }
        lines.append("Sessions".consoleText(.heading))
        let sessions = Table(
            columns: [.init("ID"), .init("DEVICE", flexible: true), .init("SIGNED IN"), .init("LAST USED")],
            rows: content.sessions.map { session in
                [
                    KnownIDs.short(session.id).consoleText(.muted),
                    AccountContent.label(of: session).consoleText(session.current ? .heading : .plain),
                    Formats.date(session.createdAt).consoleText(.muted),
                    Formats.date(session.lastUsedAt).consoleText(.muted),
                ]
            })
        lines += sessions.render(width: width)
        lines.append("")
        lines.append("Blocked".consoleText(.heading))
        if content.blocked.isEmpty { lines.append("  nobody".consoleText(.muted)) }
        for user in content.blocked {
            lines.append("  " + KnownIDs.short(user.id).consoleText(.muted) + "  " + Formats.person(user).consoleText())
        }
        return lines
    }
}
