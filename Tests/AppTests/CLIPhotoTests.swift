import BazaarAPI
import Foundation
import TestSupport
import Testing

/// Photos from the terminal app, run as a subprocess against a real server on loopback: selling
/// and editing with `--photo`, a listing's photos managed, and photos in chat saved to a file.
@Suite("bazaar: photos, driven as a subprocess", .timeLimit(.minutes(4)))
struct CLIPhotoTests {
    /// Image files written for the app to read, and a text file dressed as a JPEG.
    struct Files {
        let folder: URL
        func write(_ name: String, _ data: Data) throws -> String {
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            return url.path
        }
    }

    static func withFiles(_ body: (Files) async throws -> Void) async throws {
        let folder = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(Files(folder: folder))
    }

    @Test(
        "sell with two photos, add one, make the last the cover, remove one; a text file named .jpg exits 64 and sends nothing"
    )
    func listingPhotos() async throws {
        try await Self.withFiles { files in
            try await CLIChat.with { chat, _ in
                let seller = chat.seller
                let front = try files.write("front.jpg", TestImages.jpeg(width: 1600, height: 1200, grain: 0.2))
                let side = try files.write("side.png", TestImages.png(width: 300, height: 400))
                let fake = try files.write("fake.jpg", Data("not a picture".utf8))

                let refused = try await seller.run([
                    "product", "sell", "--title", "Lamp", "--price", "20", "--photo", fake,
                ])
                #expect(refused.exitCode == 64, "\(refused.stderr)")
                #expect(refused.errorLines == ["bazaar: \(fake) is not a JPEG, PNG or WebP image"])
                let (none, _) = try await seller.json([Product].self, ["products", "--seller", chat.sellerAccount.id])
                #expect(none.isEmpty, "nothing was listed")

                let (listed, sold) = try await seller.json(
                    Product.self,
                    ["product", "sell", "--title", "Lamp", "--price", "20", "--photo", front, "--photo", side])
                #expect(sold.exitCode == 0)
                #expect(listed.photos.map { [$0.width, $0.height] } == [[1600, 1200], [300, 400]])

                let back = try files.write("back.webp", TestImages.webp(width: 200, height: 100))
                let (edited, _) = try await seller.json(Product.self, ["product", "edit", listed.id, "--photo", back])
                #expect(edited.photos.count == 3)
                let listing = try await seller.run(["product", "photos", listed.id])
                #expect(listing.stdout.contains("1600×1200  (cover)"), "\(listing.stdout)")
                #expect(listing.stdout.contains("3. \(edited.photos[2].id.prefix(8))  200×100"), "\(listing.stdout)")

                let (moved, _) = try await seller.json(
                    Product.self,
                    ["product", "photos", "move", listed.id, String(edited.photos[2].id.prefix(8)), "--to", "1"])
                #expect(moved.photos.map(\.id) == [edited.photos[2].id, edited.photos[0].id, edited.photos[1].id])
                let (removed, _) = try await seller.json(
                    Product.self, ["product", "photos", "remove", listed.id, edited.photos[0].id])
                #expect(removed.photos.map(\.id) == [edited.photos[2].id, edited.photos[1].id])
                let unknown = try await seller.run(["product", "photos", "remove", listed.id, edited.photos[0].id])
                #expect(unknown.exitCode == 66, "\(unknown.stderr)")
                let stranger = try await chat.buyer.run(["product", "photos", "add", listed.id, front])
                #expect(stranger.exitCode == 66, "someone else's listing does not exist for them: \(stranger.stderr)")
            }
        }
    }

    @Test(
        "a chat photo is sent with text or alone, shown as a line with the command that saves it, and saved by the other member only"
    )
    func chatPhotos() async throws {
        try await Self.withFiles { files in
            try await CLIChat.with(selling: ("Amp", "80")) { chat, _ in
                let (seller, buyer, conversation) = (chat.seller, chat.buyer, chat.conversation)
                let scratch = try files.write("scratch.jpg", TestImages.jpeg(width: 1200, height: 900, grain: 0.2))
                let sent = try await buyer.run(["chat", "send", conversation.id, "The scratch", "--photo", scratch])
                #expect(sent.exitCode == 0 && sent.stdout.contains("sent"), "\(sent.stdout) \(sent.stderr)")
                let alone = try await buyer.run(["chat", "send", conversation.id, "--photo", scratch])
                #expect(alone.exitCode == 0, "\(alone.stderr)")
                let nothing = try await buyer.run(["chat", "send", conversation.id])
                #expect(nothing.exitCode == 64)
                #expect(nothing.stderr.contains("Write something or add a photo."), "\(nothing.stderr)")
                let five = try await buyer.run(
                    ["chat", "send", conversation.id, "many"]
                        + Array(repeating: ["--photo", scratch], count: 5).flatMap { $0 })
                #expect(five.exitCode == 64)

                // The seller reads the conversation; each photo is a line naming the command that saves it.
                let shown = try await seller.run(["chat", "open", conversation.id], input: "/quit\n")
                #expect(shown.exitCode == 0, "\(shown.stderr)")
                let photoLines = shown.stdout.split(separator: "\n").filter { $0.contains("📷 photo 1 of 1") }
                #expect(photoLines.count == 2, "one line per photo, under each message: \(shown.stdout)")
                #expect(shown.stdout.contains("Bea Buyer: (1 photo)"), "a photo alone says so: \(shown.stdout)")
                let firstLine = String(try #require(photoLines.first))
                let command = try #require(firstLine.range(of: "bazaar chat photo "))
                let save: [String] = firstLine[command.upperBound...].split(separator: " ").map(String.init)
                #expect(photoLines.first?.contains("1200×900") == true, "\(shown.stdout)")
                let target = files.folder.appendingPathComponent("saved.jpg").path
                let saved = try await seller.run(["chat", "photo"] + save + ["--to", target, "--size", "thumb"])
                #expect(saved.exitCode == 0, "\(saved.stderr)")
                let bytes = try Data(contentsOf: URL(fileURLWithPath: target))
                #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]), "a JPEG was written")

                // A third person, in no conversation with them, is told it does not exist.
                let known = try String(
                    contentsOf: seller.configFolder.appendingPathComponent("known-ids.txt"), encoding: .utf8)
                let photoID = try #require(known.split(separator: "\n").first { $0.hasPrefix(save[1]) })
                let outsider = try CLIUser(server: seller.server)
                defer { outsider.removeFolder() }
                _ = try await outsider.json(User.self, ["register", "eve", "--name", "Eve"], input: "eve-password\n")
                let refused = try await outsider.run(
                    [
                        "chat", "photo", conversation.id, String(photoID), "--to",
                        files.folder.appendingPathComponent("eve.jpg").path,
                    ])
                #expect(refused.exitCode == 66, "\(refused.stderr)")
                #expect(!FileManager.default.fileExists(atPath: files.folder.appendingPathComponent("eve.jpg").path))
            }
        }
    }
}
