import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import Networking
import TerminalUI

/// `bazaar profile [show | rename NAME | photo FILE]`.
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Show or change your profile.",
        discussion: """
            Examples:
              bazaar profile
              bazaar profile rename "Ada L."
              bazaar profile photo ~/me.jpg
            """,
        subcommands: [Show.self, Rename.self, Photo.self], defaultSubcommand: Show.self)

    /// Draws a profile state, or turns a failure into the app's error.
    static func draw(_ state: ProfileState, in context: AppContext) throws {
        switch state {
        case .presenting(let content):
            if context.json { return try context.printJSON(content.user) }
            context.output.write(ProfileRenderer().lines(for: content, width: context.output.capabilities.width))
        case .failed(let error):
            throw AppError(error)
        case .signedOut:
            throw AppError.signedOut
        case .loading:
            break
        }
    }

    /// `bazaar profile show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show your profile.", discussion: "Examples:\n  bazaar profile show\n  bazaar profile show --json"
        )
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AppCommand.run(options) { context in
                try await context.startSignedIn()
                let screen = try context.dependencies.profileModule.profileScreen()
                let state = await context.output.loading("Loading your profile") { await screen.logic.send(.load) }
                try ProfileCommand.draw(state, in: context)
            }
        }
    }

    /// `bazaar profile rename NAME`.
    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change your display name.", discussion: "Examples:\n  bazaar profile rename \"Ada L.\"")
        @Argument(help: "The new display name.") var name: String
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AppCommand.run(options) { context in
                try await context.startSignedIn()
                let screen = try context.dependencies.profileModule.profileScreen()
                let state = await context.output.loading("Renaming") {
                    await screen.logic.send(.changeDisplayName(name))
                }
                if case .presenting(let content) = state { context.services.remember(content.user) }
                try ProfileCommand.draw(state, in: context)
            }
        }
    }

    /// `bazaar profile photo FILE`.
    struct Photo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload a new profile photo (JPEG, PNG or WebP, at most 5 MiB), with a progress bar.",
            discussion: "Examples:\n  bazaar profile photo ~/me.jpg")
        @Argument(help: "The image file.") var file: String
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AppCommand.run(options) { context in
                let (bytes, mediaType) = try ImageFile.read(file)
                try await context.startSignedIn()
                let screen = try context.dependencies.profileModule.profileScreen()
                let bar =
                    context.json
                    ? nil : context.output.progress("Uploading \(URL(fileURLWithPath: file).lastPathComponent)")
                let progress = Task {
                    for await state in await screen.logic.states() {
                        if let fraction = state.content?.uploadProgress { bar?.update(fraction) }
                    }
                }
                let state = await screen.logic.send(.changePhoto(bytes, mediaType))
                progress.cancel()
                bar?.finish(succeeded: state.isPresenting)
                if case .presenting(let content) = state { context.services.remember(content.user) }
                try ProfileCommand.draw(state, in: context)
            }
        }
    }
}

extension ProfileState {
    var isPresenting: Bool {
        if case .presenting = self { true } else { false }
    }
}
