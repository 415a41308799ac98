import BazaarAPI
import Foundation
import TestSupport
import Testing

/// The `bazaar` executable as a person or a script runs it, against a real server on loopback.
@Suite("bazaar, driven as a subprocess", .timeLimit(.minutes(4)))
struct CLIWalkthroughTests {
    @Test("saved: add by a short id, list with status and count, remove; your own product is refused with a line")
    func savedProducts() async throws {
        try await CLIUser.pair { seller, buyer, _ in
            _ = try await seller.json(User.self, ["register", "sam", "--name", "Sam"], input: "sam-password\n")
            _ = try await buyer.json(User.self, ["register", "bea", "--name", "Bea"], input: "bea-password\n")
            let (lamp, _) = try await seller.json(
                Product.self, ["product", "sell", "--title", "Lamp", "--price", "12"])
            let empty = try await buyer.run(["saved"])
            #expect(empty.exitCode == 0 && empty.stdout.contains("Nothing saved yet"), "\(empty.stdout)")
            // The short id a table showed is enough, once this device has seen it.
            _ = try await buyer.run(["products"])
            let (saved, _) = try await buyer.json([Product].self, ["saved", "--add", String(lamp.id.prefix(8))])
            #expect(saved.map(\.id) == [lamp.id] && saved.first?.favouriteCount == 1)
            let table = try await buyer.run(["saved"])
            #expect(table.stdout.contains("Lamp") && table.stdout.contains("available"), "\(table.stdout)")
            #expect(table.stdout.contains("1 saved product"))
            let (after, _) = try await buyer.json([Product].self, ["saved", "--remove", lamp.id])
            #expect(after.isEmpty)
            let own = try await seller.run(["saved", "--add", lamp.id])
            #expect(own.exitCode != 0)
            #expect(own.stderr.contains("own product"), "\(own.stderr)")
            #expect(own.stderr.split(separator: "\n").count == 1, "one line: \(own.stderr)")
        }
    }

    @Test(
        "register, login, sell, search, chat start, send and list, notifications, logout: each with its --json and exit code"
    )
    func wholeJourney() async throws {
        try await CLIUser.pair { seller, buyer, _ in

            let (registered, _) = try await seller.json(
                User.self, ["register", "sam", "--name", "Sam Seller"], input: "sam-password\n")
            #expect(registered.username == "sam")
            #expect(registered.displayName == "Sam Seller")
            let (me, _) = try await seller.json(User.self, ["whoami"])
            #expect(me.id == registered.id)
            let loggedOut = try await seller.run(["logout"])
            #expect(loggedOut.exitCode == 0)
            #expect(loggedOut.stdout.contains("Signed out"))
            let (again, _) = try await seller.json(User.self, ["login", "sam"], input: "sam-password\n")
            #expect(again.id == registered.id)

            let badPrice = try await seller.run(["product", "sell", "--title", "Lamp", "--price", "twelve"])
            #expect(badPrice.exitCode == 65)
            #expect(badPrice.stderr.contains("price: Enter a price like 120 or 4.50"), "\(badPrice.stderr)")
            let (listed, _) = try await seller.json(
                Product.self,
                ["product", "sell", "--title", "Brass lamp", "--price", "12.50", "--description", "Works fine"])
            #expect(listed.priceCents == 1250)
            #expect(listed.sellerId == registered.id)
            let (found, _) = try await buyer.json([Product].self, ["products", "--search", "brass"])
            #expect(found.map(\.id) == [listed.id])
            let table = try await buyer.run(["products", "--search", "brass"])
            #expect(table.exitCode == 0)
            #expect(table.stdout.contains("Brass lamp") && table.stdout.contains("€12.50"))
            #expect(
                table.stdout.contains(String(listed.id.prefix(8))) && !table.stdout.contains(listed.id),
                "tables show short ids")
            let (cheaper, _) = try await seller.json(
                Product.self, ["product", "sell", "--title", "Brass lamps, pair", "--price", "8"])
            let (byPrice, _) = try await buyer.json(
                [Product].self, ["products", "--search", "lamp", "--max-price", "20", "--sort", "price-asc"])
            #expect(byPrice.map(\.id) == [cheaper.id, listed.id], "stems, a price ceiling and cheapest first")
            let (over10, _) = try await buyer.json(
                [Product].self, ["products", "--min-price", "10", "--seller", registered.id])
            #expect(over10.map(\.id) == [listed.id])
            let described = try await buyer.run([
                "products", "--search", "lamp", "--min-price", "9", "--sort", "price-desc",
            ])
            #expect(
                described.stdout.contains("1 product matching “lamp”, from 9.00, dearest first"), "\(described.stdout)")
            let byPrefix = try await buyer.run(["product", "show", String(listed.id.prefix(6))])
            #expect(byPrefix.exitCode == 0, "\(byPrefix.stderr)")
            #expect(byPrefix.stdout.contains("Brass lamp"))

            _ = try await buyer.json(User.self, ["register", "bea", "--name", "Bea Buyer"], input: "bea-password\n")
            let (conversation, _) = try await buyer.json(
                Conversation.self, ["chat", "start", registered.id, "--product", listed.id])
            #expect(conversation.otherUser.id == registered.id)
            #expect(conversation.product?.id == listed.id)
            let sent = try await buyer.run(["chat", "send", conversation.id, "Is the lamp still for sale?"])
            #expect(sent.exitCode == 0, "\(sent.stderr)")
            #expect(sent.stdout.contains("sent"))
            let (conversations, _) = try await buyer.json([Conversation].self, ["chat", "list"])
            #expect(conversations.first?.lastMessage?.body == "Is the lamp still for sale?")

            let (notifications, _) = try await seller.json([BazaarAPI.Notification].self, ["notifications"])
            #expect(notifications.count == 1)
            #expect(notifications.first?.type == NotificationType.newMessage)
            #expect(notifications.first?.read == false)
            let (afterReadAll, _) = try await seller.json(
                [BazaarAPI.Notification].self, ["notifications", "--read-all"])
            let allRead = afterReadAll.allSatisfy(\.read)
            #expect(allRead)
            let (sellerInbox, _) = try await seller.json([Conversation].self, ["chat", "list"])
            #expect(sellerInbox.first?.unreadCount == 1)

            let bye = try await buyer.run(["logout"])
            #expect(bye.exitCode == 0)
            let nobody = try await buyer.run(["whoami"])
            #expect(nobody.exitCode == 77)
            #expect(nobody.errorLines == ["bazaar: not signed in: run 'bazaar login USERNAME' first"])
        }
    }

    @Test("chat open prints the history, sends typed lines, and leaves at /quit")
    func chatOpen() async throws {
        try await CLIChat.with { chat, server in
            let (seller, buyer, conversation) = (chat.seller, chat.buyer, chat.conversation)
            _ = try await seller.run(["chat", "send", conversation.id, "Hello from Sam"])

            let session = try await buyer.run(["chat", "open", conversation.id], input: "Hi Sam, typed live\n/quit\n")
            #expect(session.exitCode == 0, "\(session.stderr)")
            #expect(session.stdout.contains("Chat with Sam Seller (@sam)"))
            #expect(session.stdout.contains("Sam Seller: Hello from Sam"))

            let (inbox, _) = try await seller.json([Conversation].self, ["chat", "list"])
            #expect(inbox.first?.lastMessage?.body == "Hi Sam, typed live", "the typed line reached the server")
            let (buyerInbox, _) = try await buyer.json([Conversation].self, ["chat", "list"])
            #expect(buyerInbox.first?.unreadCount == 0, "what chat open showed was marked read")
        }
    }

    @Test("chat open shows a message that arrives while it is open, and marks it read")
    func chatOpenReceivesLive() async throws {
        try await CLIChat.with { chat, server in
            let (seller, buyer, conversation) = (chat.seller, chat.buyer, chat.conversation)
            _ = try await seller.run(["chat", "send", conversation.id, "First, before you opened"])

            let open = try buyer.openChat(conversation.id)
            // Once the history is on screen the conversation is marked read: wait for that.
            try await Self.waitUntilRead(conversation.id, by: buyer, lastMessagePrefix: "First")
            _ = try await seller.run(["chat", "send", conversation.id, "Second, while you watch"])
            // The live message is shown and marked read (a read receipt) without anything typed.
            try await Self.waitUntilRead(conversation.id, by: buyer, lastMessagePrefix: "Second")
            try open.type("/quit\n")
            let outcome = await open.wait()
            #expect(outcome.exitCode == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("Sam Seller: First, before you opened"))
            #expect(outcome.stdout.contains("Sam Seller: Second, while you watch"))
        }
    }

    @Test("profile: show, rename, and a photo upload whose type is told by its bytes; a file that is no image exits 64")
    func profile() async throws {
        try await CLIChat.with { chat, _ in
            let buyer = chat.buyer
            let (shown, _) = try await buyer.json(User.self, ["profile"])
            #expect(shown.displayName == "Bea Buyer")
            let (renamed, _) = try await buyer.json(User.self, ["profile", "rename", "Bea B."])
            #expect(renamed.displayName == "Bea B.")
            let (me, _) = try await buyer.json(User.self, ["whoami"])
            #expect(me.displayName == "Bea B.")

            let photo = buyer.configFolder.appendingPathComponent("me.jpeg-really-a-png")
            try TestImages.png(width: 400, height: 300, grain: 40).write(to: photo)
            let upload = try await buyer.run(["profile", "photo", photo.path])
            #expect(upload.exitCode == 0, "\(upload.stderr)")
            #expect(upload.stdout.contains("100%"), "the progress bar ends at 100%")
            let (withPhoto, _) = try await buyer.json(User.self, ["profile"])
            #expect(withPhoto.photoURL != nil)

            let text = buyer.configFolder.appendingPathComponent("notes.txt")
            try Data("not an image".utf8).write(to: text)
            let refused = try await buyer.run(["profile", "photo", text.path])
            #expect(refused.exitCode == 64)
            #expect(refused.errorLines == ["bazaar: \(text.path) is not a JPEG, PNG or WebP image"])
        }
    }

    /// Polls `user`'s conversation list until the conversation's last message starts with
    /// `lastMessagePrefix` and nothing in it is unread (bounded: a minute at most).
    static func waitUntilRead(_ conversationID: String, by user: CLIUser, lastMessagePrefix: String)
        async throws
    {
        let read = try await eventually(within: .seconds(60), every: .milliseconds(100)) {
            let (conversations, _) = try await user.json([Conversation].self, ["chat", "list"])
            guard let match = conversations.first(where: { $0.id == conversationID }) else { return false }
            return match.unreadCount == 0 && match.lastMessage?.body.hasPrefix(lastMessagePrefix) == true
        }
        #expect(read, "the conversation was not marked read in time")
    }
}
