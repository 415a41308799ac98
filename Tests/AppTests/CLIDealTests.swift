import BazaarAPI
import Foundation
import TestSupport
import Testing

/// The deal through `bazaar` as a person or a script drives it: offers (as commands and inside
/// `chat open`), against a real server on loopback.
@Suite("bazaar: the deal, driven as a subprocess", .timeLimit(.minutes(4)))
struct CLIDealTests {
    @Test(
        "offer make, list, accept: each side sees its own decisions; a decision that is not yours exits 1 with a line")
    func offerCommands() async throws {
        try await CLIChat.with(selling: ("Bicycle", "150")) { chat, _ in
            let (seller, buyer, conversation) = (chat.seller, chat.buyer, chat.conversation)
            let badAmount = try await buyer.run(["offer", "make", conversation.id, "lots"])
            #expect(badAmount.exitCode == 64, "\(badAmount.stderr)")
            let (made, _) = try await buyer.json([Offer].self, ["offer", "make", conversation.id, "120"])
            #expect(made.map(\.amountCents) == [12_000])
            let asked = try await seller.run(["offer", "list", conversation.id])
            #expect(asked.stdout.contains("Bea Buyer offered 120.00 EUR"), "\(asked.stdout)")
            #expect(asked.stdout.contains("waiting for your answer") && asked.stdout.contains("accept, decline"))
            let notYours = try await buyer.run(["offer", "accept", conversation.id])
            #expect(notYours.exitCode == 1)
            #expect(notYours.errorLines == ["bazaar: no offer here can be accepted by you now"])
            let unknown = try await seller.run(["offer", "accept", conversation.id, "zzzz"])
            #expect(unknown.exitCode == 66, "\(unknown.stderr)")
            let (accepted, _) = try await seller.json([Offer].self, ["offer", "accept", conversation.id])
            #expect(accepted.first?.status == .accepted)
            let (shown, _) = try await buyer.json(ShownProduct.self, ["product", "show", chat.product?.id ?? ""])
            #expect(shown.product.status == .reserved)
            let told = try await buyer.run(["offer", "list", conversation.id])
            #expect(told.stdout.contains("accepted: reserved for you"), "\(told.stdout)")
        }
    }

    @Test("product edit, status and remove: the seller's listing changes; a stranger's exits 66; a sold one exits 65")
    func listingCommands() async throws {
        try await CLIChat.with(selling: ("Road bike", "250")) { chat, _ in
            let (seller, buyer) = (chat.seller, chat.buyer)
            let id = try #require(chat.product?.id)
            let noFields = try await seller.run(["product", "edit", id])
            #expect(noFields.exitCode == 64)
            let badPrice = try await seller.run(["product", "edit", id, "--price", "lots"])
            #expect(badPrice.exitCode == 65)
            #expect(badPrice.errorLines == ["bazaar: price: Enter a price like 120 or 4.50."], "\(badPrice.stderr)")
            let (edited, _) = try await seller.json(Product.self, ["product", "edit", id, "--price", "199.50"])
            #expect(edited.priceCents == 19_950 && edited.title == "Road bike")

            let choices = try await seller.run(["product", "status", id])
            #expect(choices.stdout.contains("Bea Buyer (@bea)"), "\(choices.stdout)")
            #expect(choices.stdout.contains("It can become: reserved, sold"), "\(choices.stdout)")
            let noBuyer = try await seller.run(["product", "status", id, "sold"])
            #expect(noBuyer.exitCode == 64)
            let buyerID = String(try await buyer.json(User.self, ["whoami"]).0.id.prefix(8))
            let (reserved, _) = try await seller.json(
                Product.self, ["product", "status", id, "reserved", "--buyer", buyerID])
            #expect(reserved.status == .reserved)
            let stranger = try await buyer.run(["product", "edit", id, "--title", "Mine now"])
            #expect(stranger.exitCode == 66, "\(stranger.stderr)")

            let defaultList = try await buyer.run(["products"])
            #expect(!defaultList.stdout.contains("Road bike"), "a reserved product leaves the default list")
            let all = try await buyer.run(["products", "--status", "all"])
            #expect(all.stdout.contains("STATUS") && all.stdout.contains("reserved"), "\(all.stdout)")
            #expect(all.stdout.contains("of any status"))

            _ = try await seller.json(Product.self, ["product", "status", id, "sold", "--buyer", buyerID])
            let final = try await seller.run(["product", "edit", id, "--price", "1"])
            #expect(final.exitCode == 65)
            #expect(final.stderr.contains("sold"), "\(final.stderr)")

            let (other, _) = try await seller.json(
                Product.self, ["product", "sell", "--title", "Pump", "--price", "9"])
            let removed = try await seller.run(["product", "remove", other.id])
            #expect(removed.exitCode == 0 && removed.stdout.contains("taken down"), "\(removed.stdout)")
            let gone = try await buyer.run(["product", "show", other.id])
            #expect(gone.exitCode == 66)
        }
    }

    @Test("review after a sale, both ways; the seller's page shows the stars, the review and the sold listing")
    func reviewsAndTheSellersPage() async throws {
        try await CLIChat.with(selling: ("Tent", "60")) { chat, _ in
            let (seller, buyer) = (chat.seller, chat.buyer)
            let id = try #require(chat.product?.id)
            let early = try await buyer.run(["review", id, "--rating", "5"])
            #expect(early.exitCode == 65 && early.stderr.contains("not sold"), "\(early.stderr)")
            let bea = try await buyer.json(User.self, ["whoami"]).0
            _ = try await seller.json(Product.self, ["product", "status", id, "sold", "--buyer", bea.id])
            let badRating = try await buyer.run(["review", id, "--rating", "9"])
            #expect(badRating.errorLines == ["bazaar: rating: Give a rating from 1 to 5 stars."], "\(badRating.stderr)")
            let (review, _) = try await buyer.json(Review.self, ["review", id, "--rating", "5", "--text", "Like new"])
            #expect(review.subjectId == chat.sellerAccount.id && review.rating == 5)
            let twice = try await buyer.run(["review", id, "--rating", "1"])
            #expect(twice.exitCode == 65 && twice.stderr.contains("already"), "\(twice.stderr)")
            let back = try await seller.run(["review", id, "--rating", "4", "--text", "Paid on time"])
            #expect(back.exitCode == 0 && back.stdout.contains("★★★★☆"), "\(back.stdout)")

            let page = try await buyer.run(["seller", chat.sellerAccount.id])
            #expect(page.stdout.contains("★★★★★  5.0 ★ from 1 review"), "\(page.stdout)")
            #expect(page.stdout.contains("Bea Buyer: Like new"), "\(page.stdout)")
            #expect(page.stdout.contains("Tent") && page.stdout.contains("sold"), "\(page.stdout)")
            let (json, _) = try await seller.json(SellerJSON.self, ["seller", bea.id])
            #expect(json.user.ratingCount == 1 && json.reviews.first?.text == "Paid on time")
            let unknown = try await buyer.run(["seller", "00000000-0000-0000-0000-000000000000"])
            #expect(unknown.exitCode == 66)
        }
    }

    @Test("chat open: an offer made while it is open shows up, and /accept takes it")
    func offersInsideChatOpen() async throws {
        try await CLIChat.with(selling: ("Armchair", "90")) { chat, server in
            let (seller, buyer, conversation) = (chat.seller, chat.buyer, chat.conversation)
            _ = try await buyer.run(["chat", "send", conversation.id, "Would you take less?"])
            let open = try seller.openChat(conversation.id)
            try await CLIWalkthroughTests.waitUntilRead(conversation.id, by: seller, lastMessagePrefix: "Would")
            _ = try await buyer.run(["offer", "make", conversation.id, "75"])
            // The offer's line arrives live and the open screen marks it read.
            try await CLIWalkthroughTests.waitUntilRead(conversation.id, by: seller, lastMessagePrefix: "Offered")
            try open.type("/accept\n/quit\n")
            let outcome = await open.wait()
            #expect(outcome.exitCode == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("Bea Buyer: ◆ Offered 75.00 EUR"), "\(outcome.stdout)")
            #expect(
                outcome.stdout.contains("◆ Bea Buyer offered 75.00 EUR: waiting for your answer (/accept, /decline)"))
            #expect(outcome.stdout.contains("You: ◆ Accepted the offer of 75.00 EUR"), "\(outcome.stdout)")
            let (shown, _) = try await buyer.json(ShownProduct.self, ["product", "show", chat.product?.id ?? ""])
            #expect(shown.product.status == .reserved)
        }
    }
}

/// What `bazaar product show --json` prints.
struct ShownProduct: Decodable {
    let product: Product
}

/// What `bazaar seller --json` prints.
struct SellerJSON: Decodable {
    let user: User
    let reviews: [Review]
    let listings: [Product]
}
