import BazaarAPI
import ConsoleKitTerminal
import DemoPictures
import Dependencies
import Foundation
import Networking
import Session
import TerminalUI

/// The walk-through `bazaar-demo` runs: a server on a free port with a temporary SQLite file and
/// demo data, then two people using the app through the real modules, logic controllers and
/// network stack (never the database directly), drawn by the same renderers as the commands.
///
/// The server comes from the composition that runs the script (``DemoServer``): the app knows
/// the server only by its URL, as it does everywhere else.
struct DemoScript {
    let narrator: DemoNarrator
    let servers: any DemoServerFactory

    private static let sellerPassword = "bazaar-demo"

    /// Runs the whole story; the temporary folder is removed at the end, whatever happens.
    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bazaar-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("bazaar.sqlite").path
        var server = try await servers.start(database: database, port: 0)
        do {
            try await walk(folder: folder, server: &server, database: database)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    // swiftlint:disable:next function_body_length
    private func walk(folder: URL, server: inout any DemoServer, database: String) async throws {
        let url = server.baseURL
        try await narrator.step(1, "A Bazaar server starts in this process")
        narrator.note("\(url.absoluteString), a fresh SQLite file in \(folder.path), demo data seeded")

        try await narrator.step(2, "Dana installs the app and registers")
        let dana = try await DemoUser.register(
            username: "dana", displayName: "Dana Scully", password: "trust-no-one-1",
            server: url, folder: folder.appendingPathComponent("dana"))
        narrator.show([
            "✓ Registered and signed in as ".consoleText(.success) + "Dana Scully (@dana)".consoleText(.heading)
        ])

        try await narrator.step(3, "Dana browses what is for sale")
        let browse = try dana.dependencies.productsModule.productListScreen(pageSize: 20)
        let all = try await browse.logic.send(.load(query: nil)).content()
        narrator.show(ProductListRenderer().lines(for: all, limit: 20, width: narrator.width))

        try await narrator.step(4, "…and searches for “bike”")
        let found = try await browse.logic.send(.load(query: "bike")).content()
        narrator.show(ProductListRenderer().lines(for: found, limit: 20, width: narrator.width))
        guard let bike = found.products.first else { throw AppError(.refused, "the demo data has no bike") }

        try await narrator.step(5, "She opens the road bike")
        let detail = try await dana.dependencies.productsModule.productScreen(id: bike.id).logic.send(.load).content()
        narrator.show(ProductDetailRenderer().lines(for: detail, server: url, width: narrator.width))

        try await narrator.step(6, "She messages the seller about it")
        let danaChat = try dana.dependencies.chatModule.messagesScreen(user: detail.seller, product: bike)
        _ = try await danaChat.logic.send(.load).content()
        await danaChat.logic.send(.send("Hi! Is the road bike still available?"))
        let danaOutbox = try dana.dependencies.resolve((any OutboxControlling).self)
        _ = await danaOutbox.flush()
        let sent = try await danaChat.logic.send(.refresh).content()
        let danaRenderer = MessagesRenderer(me: dana.id)
        narrator.show(danaRenderer.lines(for: sent))
        let live = await danaChat.logic.states()
        narrator.note("Dana keeps the conversation open: its logic follows live events.")

        try await narrator.step(7, "The seller, \(detail.seller.displayName), signs in on her own device and replies")
        let seller = try await DemoUser.login(
            username: detail.seller.username, password: Self.sellerPassword, server: url,
            folder: folder.appendingPathComponent(detail.seller.username))
        let inbox = try await seller.dependencies.chatModule.conversationsScreen().logic.send(.load).content()
        narrator.show(ConversationsRenderer().lines(for: inbox, width: narrator.width))
        guard let conversation = inbox.conversations.first(where: { $0.otherUser.id == dana.id }) else {
            throw AppError(.refused, "the seller does not see Dana's conversation")
        }
        let sellerChat = try seller.dependencies.chatModule.messagesScreen(conversationID: conversation.id)
        _ = try await sellerChat.logic.send(.load).content()
        await sellerChat.logic.send(.markRead)
        // A photo of the bike from the side, through the outbox like any message: uploaded just
        // before the message goes.
        let side = PhotoToSend(
            data: DemoImage.product(titled: bike.title, colour: DemoPicture.palette[0]), mediaType: .png)
        await sellerChat.logic.send(.sendPhotos([side], text: "Yes, it is! Here it is from the side. Saturday?"))
        _ = await (try seller.dependencies.resolve((any OutboxControlling).self)).flush()

        try await narrator.step(8, "The reply, with a photo, arrives on Dana's open screen, live")
        let sellerID = seller.id
        let reply = try await DemoWait.first("the reply", in: live, within: .seconds(15)) { content in
            content.messages.last { $0.senderId == sellerID }
        }
        narrator.show(danaRenderer.lines(for: reply, in: sent.conversation))

        try await narrator.step(9, "Dana renames herself")
        let profile = try dana.dependencies.profileModule.profileScreen()
        let renamed = await profile.logic.send(.changeDisplayName("Dana K. Scully"))
        if case .presenting(let content) = renamed {
            narrator.show(ProfileRenderer().lines(for: content, width: narrator.width))
        }

        try await narrator.step(10, "…and uploads a profile photo")
        let photo = DemoImage.portrait()
        let bar = narrator.output.progress("   Uploading photo.png (\(photo.count / 1024) KiB)")
        let progress = Task {
            for await state in await profile.logic.states() {
                if let fraction = state.content?.uploadProgress { bar.update(fraction) }
            }
        }
        let uploaded = await profile.logic.send(.changePhoto(photo, .png))
        progress.cancel()
        bar.finish(succeeded: uploaded.isPresenting)
        if case .presenting(let content) = uploaded, let photoURL = content.user.photoURL {
            narrator.note("photo at \(photoURL)")
        }

        try await narrator.step(11, "Dana's notifications")
        let notifications = try dana.dependencies.notificationsModule.notificationsScreen()
        narrator.show(
            NotificationsRenderer().lines(
                for: try await notifications.logic.send(.load).content(), width: narrator.width))
        narrator.note("She marks them all read:")
        narrator.show(
            NotificationsRenderer().lines(
                for: try await notifications.logic.send(.markAllRead).content(), width: narrator.width))
        await danaChat.logic.send(.markRead)

        try await narrator.step(12, "The server goes away for a moment…")
        let port = server.port
        await server.stop()
        narrator.note("stopped; nothing listens on port \(port)")

        try await narrator.step(13, "…and Dana sends a message anyway: it waits in her outbox, on disk")
        let sender = try dana.dependencies.chatModule.messageSender(toConversation: conversation.id)
        let queued = try await sender.sendNewMessage(with: "Great, see you Saturday at ten!")
        let delivered = await danaOutbox.flush()
        narrator.show([danaRenderer.line(for: try await danaOutbox.entries().first { $0.id == queued.id } ?? queued)])
        narrator.note(delivered ? "(unexpectedly delivered)" : "the server cannot be reached; the message stays queued")

        try await narrator.step(14, "The server is back on the same port, same database")
        server = try await servers.start(database: database, port: port)
        narrator.note("listening again on \(server.baseURL.absoluteString)")

        try await narrator.step(15, "The outbox delivers the message, exactly once")
        let settled = await danaOutbox.flush()
        let final = await danaOutbox.delivery(of: queued.id)
        narrator.show([danaRenderer.line(for: final)])
        guard settled, case .sent = final.state else {
            throw AppError(.refused, "the queued message was not delivered")
        }
        let sellerView = try await sellerChat.logic.send(.refresh).content()
        narrator.note("what the seller now sees:")
        narrator.show(MessagesRenderer(me: seller.id).lines(for: sellerView))

        let afterDeal = try await DemoDeal(
            narrator: narrator, buyer: dana, seller: seller, product: bike, conversationID: conversation.id
        ).walk(from: 16)
        let next = try await DemoTrust(
            narrator: narrator, victim: dana, server: server.baseURL, folder: folder, database: database,
            servers: servers
        ).walk(from: afterDeal)

        try await narrator.step(next, "Both sign out")
        for user in [dana, seller] {
            let state = await (try user.dependencies.profileModule.profileScreen()).logic.send(.logout)
            if case .signedOut = state {
                narrator.show([
                    "✓ ".consoleText(.success) + "\(await user.session.user.user.displayName) signed out".consoleText()
                ])
            }
            await (try user.dependencies.resolve((any LiveEventSource).self)).stop()
        }

        try await narrator.step(next + 1, "Done")
        narrator.note("The server stops and the temporary folder is removed. Try it for real:")
        narrator.note("  swift run bazaar-server --seed-demo   and, in another terminal,   swift run bazaar products")
    }
}
