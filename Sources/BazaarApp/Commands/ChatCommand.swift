import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import Networking
import Session
import TerminalUI

/// `bazaar chat list | start | send | open`.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat", abstract: "Talk with buyers and sellers.",
        discussion: """
            Examples:
              bazaar chat list
              bazaar chat start 7c1e… --product 3f2a…
              bazaar chat send 9d4b… "Is it still available?"
              bazaar chat send 9d4b… "The scratch" --photo scratch.jpg
              bazaar chat open 9d4b…
              bazaar chat photo 9d4b… 5e6f… --to scratch.jpg
            """,
        subcommands: [List.self, Start.self, Send.self, Open.self, SavePhoto.self], defaultSubcommand: List.self)

    /// `bazaar chat list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Your conversations, newest activity first, with unread counts.",
            discussion: "Examples:\n  bazaar chat list\n  bazaar chat list --json")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AppCommand.run(options) { context in
                try await context.startSignedIn()
                let screen = try context.dependencies.chatModule.conversationsScreen()
                let content = try await context.output.loading("Loading conversations") {
                    await screen.logic.send(.load)
                }.content()
                context.ids.record(content.conversations.map(\.id))
                if context.json { return try context.printJSON(content.conversations) }
                context.output.write(
                    ConversationsRenderer().lines(for: content, width: context.output.capabilities.width))
            }
        }
    }

    /// `bazaar chat start USER [--product ID]`.
    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start (or find) the conversation with a user, about a product or not.",
            discussion: """
                The user is an id, as `bazaar product show` prints for the seller. An unknown user or
                product exits with 66.

                Examples:
                  bazaar chat start 7c1e… --product 3f2a…
                """)
        @Argument(help: "The other user's id, or a unique prefix of one shown here.") var user: String
        @Option(help: "The product to talk about (an id or a unique prefix).") var product: String?
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AppCommand.run(options) { context in
                let session = try await context.startSignedIn()
                let screen = try context.dependencies.chatModule.conversationsScreen()
                let userID = try context.ids.resolve(user, what: "user")
                let productID = try product.map { text throws(AppError) in
                    try context.ids.resolve(text, what: "product")
                }
                let started = try await context.output.loading("Starting the conversation") {
                    await screen.logic.send(.start(withUser: userID, aboutProduct: productID))
                }.content().started
                guard let conversation = started else { throw AppError(.refused, "the server started no conversation") }
                context.ids.record([conversation.id])
                if context.json { return try context.printJSON(conversation) }
                context.output.write(MessagesRenderer(me: session.userID).header(for: conversation))
                context.output.write(
                    "Say something: bazaar chat send \(KnownIDs.short(conversation.id)) \"Hello!\"".consoleText(.muted))
            }
        }
    }

    /// `bazaar chat send CONVERSATION [TEXT] [--photo FILE]…`.
    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a message through the outbox: it is saved first, so it works offline.",
            discussion: """
                Prints "sent" once the server has it, or "queued" when the server cannot be reached
                (`bazaar outbox flush`, or the next chat send or chat open, delivers it). A message
                the server refuses (an unknown conversation, say) exits with 1.

                Up to four photos (JPEG, PNG or WebP, at most 5 MiB each) go with the text, or
                alone. They wait in the outbox with the message and are uploaded just before it is
                sent, so a photo picked offline goes out once the server is back.

                Examples:
                  bazaar chat send 9d4b… "Is it still available?"
                  bazaar chat send 9d4b… "Here is the scratch" --photo scratch.jpg
                  bazaar chat send 9d4b… --photo front.jpg --photo back.jpg
                """)
        @Argument(help: "The conversation's id, or a unique prefix of one shown here.") var conversation: String
        @Argument(
            help: "The message, up to \(InputRules.messageBody.upperBound) characters (may be left out with --photo).")
        var text: String = ""
        @Option(name: .customLong("photo"), help: "A photo to send with it (repeat for up to four).")
        var photos: [String] = []
        @OptionGroup var options: GlobalOptions

        func validate() throws {
            if let problem = MessageDraftError.check(body: text, photoCount: photos.count) {
                throw ValidationError(problem.description)
            }
        }

        func run() async throws {
            try await AppCommand.run(options) { context in
                let pictures = try ImageFile.photos(photos)
                try await context.startSignedIn()
                let conversationID = try context.ids.resolve(conversation, what: "conversation")
                let sender = try context.dependencies.chatModule.messageSender(toConversation: conversationID)
                let outbox = try context.dependencies.resolve((any OutboxControlling).self)
                let queued = try await sender.sendNewMessage(with: text, photos: pictures)
                await context.output.loading("Sending") { _ = await outbox.flush() }
                let entry = try await outbox.entries().first { $0.id == queued.id } ?? queued
                if context.json { return try context.printJSON(OutboxEntryJSON(entry)) }
                switch entry.state {
                case .sent(let messageID):
                    context.output.write("✓ sent".consoleText(.success) + "  message \(messageID)".consoleText(.muted))
                case .queued, .sending:
                    context.output.write(
                        "queued".consoleText(.warning)
                            + ": the server cannot be reached; 'bazaar outbox flush' (or the next chat send or chat open) delivers it"
                            .consoleText(.muted))
                case .failed(let reason):
                    throw AppError(.refused, "not delivered, the server refused it: \(reason)")
                }
            }
        }
    }

    /// `bazaar chat open CONVERSATION`.
    struct Open: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Chat live: history, new messages as they arrive, lines you type are sent.",
            discussion: """
                Type a line and press Enter to send it. /older shows earlier messages; /quit (or
                Ctrl-D) leaves. Messages you see are marked read. Offers: /offer 120 makes one,
                /offers lists them, /accept, /decline and /withdraw [OFFER] decide one; an offer made
                or decided by the other person shows up as it happens.

                Examples:
                  bazaar chat open 9d4b…
                """)
        @Argument(help: "The conversation's id, or a unique prefix of one shown here.") var conversation: String
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AppCommand.run(options) { context in
                let session = try await context.startSignedIn()
                let conversationID = try context.ids.resolve(conversation, what: "conversation")
                let screen = try context.dependencies.chatModule.messagesScreen(conversationID: conversationID)
                let outbox = try context.dependencies.resolve((any OutboxControlling).self)
                let offers = try context.dependencies.offersModule.offersScreen(conversationID: conversationID)
                try await ChatRoom(
                    logic: screen.logic, offers: offers.logic, outbox: outbox, output: context.output,
                    renderer: MessagesRenderer(me: session.userID), ids: context.ids
                ).run(input: StandardInputLines.stream())
            }
        }
    }

    /// `bazaar chat photo CONVERSATION PHOTO [--size S] [--to FILE]`.
    struct SavePhoto: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "photo", abstract: "Save a photo sent in a conversation to a file.",
            discussion: """
                The conversation shows each photo with its id. Only the conversation's two members
                can fetch it; for anyone else it does not exist (exit 66). Without --to, the photo
                is saved in the current folder as photo-ID.jpg (or .webp).

                Examples:
                  bazaar chat photo 9d4b… 5e6f…
                  bazaar chat photo 9d4b… 5e6f… --size medium --to scratch.jpg
                """)
        @Argument(help: "The conversation's id, or a unique prefix of one shown here.") var conversation: String
        @Argument(help: "The photo's id, or a unique prefix of one shown here.") var photo: String
        @Option(help: "thumb (240 px), medium (960 px) or full (at most 2048 px).") var size: PhotoSize = .full
        @Option(help: "The file to write (it is replaced).") var to: String?
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AppCommand.run(options) { context in
                try await context.startSignedIn()
                let conversationID = try context.ids.resolve(conversation, what: "conversation")
                let photoID = try context.ids.resolve(photo, what: "photo")
                let chat = try context.dependencies.chatModule
                // A NetworkError (404 for anyone outside the conversation) becomes the app's error.
                let bytes = try await context.output.loading("Fetching the photo") {
                    try await chat.photo(photoID, inConversation: conversationID, size: size)
                }
                let fileExtension = MediaType.image(sniffing: bytes) == .webp ? "webp" : "jpg"
                let path = to ?? "photo-\(KnownIDs.short(photoID)).\(fileExtension)"
                do {
                    try bytes.write(to: URL(fileURLWithPath: path), options: .atomic)
                } catch {
                    throw AppError(.storage, "cannot write \(path): \(error.localizedDescription)")
                }
                context.output.write(
                    "✓ saved ".consoleText(.success) + path.consoleText(.heading)
                        + "  \(bytes.count / 1024) KiB".consoleText(.muted))
            }
        }
    }
}

extension PhotoSize: ExpressibleByArgument {}
