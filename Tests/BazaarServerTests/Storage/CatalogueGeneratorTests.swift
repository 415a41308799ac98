import BazaarAPI
import BazaarServer
import BazaarStorage
import Foundation
import TestSupport
import Testing

@testable import BazaarSQLite

/// `bazaar-datagen` run as a person runs it, on every backend, then a real server on what it wrote.
@Suite("bazaar-datagen fills a database a server can use", .timeLimit(.minutes(3)))
struct CatalogueGeneratorTests {
    /// Runs the generator into the database of `configuration`.
    static func generate(_ configuration: BazaarServerConfiguration, seed: Int = 7, extra: [String] = []) async throws
        -> BazaarCLI.Outcome
    {
        var arguments =
            [
                "--products", "3000", "--users", "10", "--conversations", "12", "--messages-per-conversation", "25",
                "--seed", "\(seed)",
            ] + extra
        arguments +=
            configuration.databaseArguments
        return try await BazaarCLI(executable: "bazaar-datagen").run(arguments)
    }

    @Test(arguments: StorageKind.available)
    func generatedUsersSignInAndProductsConversationsAndSearchAreServed(storage: StorageKind) async throws {
        try await storage.withConfiguration { configuration in
            let outcome = try await Self.generate(configuration)
            #expect(outcome.exitCode == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("products:      3000"), "\(outcome.stdout)")
            #expect(outcome.stdout.contains("conversations: 12 with 300 messages"), "\(outcome.stdout)")
            try await BazaarTestHarness.withServer(configuration: configuration) { client in
                var listed: [Product] = []
                var cursor: String?
                repeat {
                    let page = try await client.get(
                        APIRoutes.products.template + "?limit=100" + (cursor.map { "&cursor=\($0)" } ?? "")
                    )
                    .decode(Page<Product>.self)
                    listed += page.items
                    cursor = page.nextCursor
                } while cursor != nil
                #expect(listed.count == 3000)
                // About a fifth have one to three photos, each a PNG served like an uploaded one.
                let photographed = listed.filter { !$0.photoURLs.isEmpty }
                #expect((450...750).contains(photographed.count), "\(photographed.count) of 3000 with photos")
                #expect(photographed.allSatisfy { (1...3).contains($0.photoURLs.count) })
                let photoCount = photographed.reduce(0) { $0 + $1.photoURLs.count }
                #expect(outcome.stdout.contains("products:      3000 with \(photoCount) photos"), "\(outcome.stdout)")
                for product in photographed.prefix(3) {
                    for url in product.photoURLs {
                        let photo = try await client.get(url)
                        expectStatus(photo, 200)
                        #expect(photo.header("Content-Type") == "image/png")
                        #expect(photo.body.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
                        #expect((300...600).contains(photo.body.count), "\(photo.body.count) bytes")
                        let etag = try #require(photo.header("ETag"))
                        expectStatus(try await client.get(url, headers: [("If-None-Match", etag)]), 304)
                    }
                }
                let bikes = try await client.get(APIRoutes.products.template + "?query=bikes&limit=100").decode(
                    Page<Product>.self)
                #expect(
                    !bikes.items.isEmpty
                        && bikes.items.allSatisfy { "\($0.title) \($0.description)".lowercased().contains("bike") })
                // Ten users; some of them are in conversations of 25 messages, all read.
                var histories = 0
                for index in 0..<10 {
                    let login = try await client.post(
                        APIRoutes.login.template,
                        LoginRequest(username: String(format: "user%06d", index), password: "bazaar-demo"))
                    expectStatus(login, 200)
                    let token = try login.decode(AuthResponse.self).tokens.accessToken
                    let conversations = try await client.get(APIRoutes.conversations.template, token: token).decode(
                        Page<Conversation>.self)
                    for conversation in conversations.items {
                        #expect(conversation.unreadCount == 0)
                        let messages = try await client.get(
                            APIRoutes.messages.path(conversation.id) + "?limit=100", token: token
                        )
                        .decode(Page<Message>.self)
                        #expect(messages.items.count == 25)
                        histories += 1
                    }
                }
                #expect(histories == 24, "12 conversations, seen by both of their people")
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func aSoldShareLeavesThatShareOutOfTheDefaultListAndSearch(storage: StorageKind) async throws {
        try await storage.withConfiguration { configuration in
            let outcome = try await Self.generate(configuration, extra: ["--sold-share", "0.6"])
            #expect(outcome.exitCode == 0, "\(outcome.stderr)")
            try await BazaarTestHarness.withServer(configuration: configuration) { client in
                func count(_ query: String) async throws -> (total: Int, statuses: Set<ProductStatus>) {
                    var total = 0
                    var statuses: Set<ProductStatus> = []
                    var cursor: String?
                    repeat {
                        let page = try await client.get(
                            APIRoutes.products.template + "?limit=100" + query + (cursor.map { "&cursor=\($0)" } ?? "")
                        ).decode(Page<Product>.self)
                        total += page.items.count
                        statuses.formUnion(page.items.map(\.status))
                        cursor = page.nextCursor
                    } while cursor != nil
                    return (total, statuses)
                }
                let available = try await count("")
                let sold = try await count("&status=sold")
                #expect(available.total + sold.total == 3000)
                #expect((1_650...1_950).contains(sold.total), "\(sold.total) of 3000 sold")
                #expect(available.statuses == [.available] && sold.statuses == [.sold])
                let bikes = try await count("&query=bike")
                let allBikes = try await count("&query=bike&status=all")
                #expect(bikes.statuses == [.available] && bikes.total < allBikes.total)
            }
        }
    }

    @Test("the same seed makes the same catalogue")
    func sameSeedSameCatalogue() async throws {
        var firstPages: [String] = []
        for _ in 0..<2 {
            try await StorageKind.sqlite.withConfiguration { configuration in
                #expect(try await Self.generate(configuration, seed: 42).exitCode == 0)
                try await BazaarTestHarness.withServer(configuration: configuration) { client in
                    firstPages.append(try await client.get(APIRoutes.products.template + "?limit=50").text)
                }
            }
        }
        #expect(firstPages.count == 2 && firstPages[0] == firstPages[1])
    }

    @Test("a file a bazaar-server is serving is refused, and nothing is written to it")
    func aServedFileIsRefused() async throws {
        try await StorageKind.sqlite.withConfiguration { configuration in
            let serving = try SQLiteFileLock(databasePath: configuration.sqlitePath)  // as bazaar-server holds it
            let outcome = try await Self.generate(configuration)
            #expect(outcome.exitCode != 0)
            #expect(outcome.stderr.contains("is in use by another bazaar-server"), "\(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: configuration.sqlitePath), "no database was created")
            withExtendedLifetime(serving) {}
        }
    }

    @Test("bad arguments exit 64 with one line")
    func badArguments() async throws {
        let generator = BazaarCLI(executable: "bazaar-datagen")
        for (arguments, message) in [
            (["--products", "10"], "give exactly one of --sqlite and --postgres"),
            (["--products", "200000000", "--sqlite", "/tmp/x"], "--products must be from 0 to 100000000"),
            (["--products", "10", "--postgres", "mysql://x"], "--postgres"),
            (["--products", "1", "--sqlite", "/tmp/x", "--sold-share", "2"], "--sold-share must be from 0 to 1"),
        ] {
            let outcome = try await generator.run(arguments)
            #expect(outcome.exitCode == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
    }
}
