import ArgumentParser
import BazaarAPI
import BazaarServer
import BazaarStorage
import Foundation
import Logging

/// `bazaar-datagen`: fills a Bazaar database with a generated catalogue (users, listings from
/// word lists, a share of them with photos, conversations with messages), written in bulk, for
/// scale benchmarks and demos.
@main
struct DataGenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bazaar-datagen",
        abstract: "Fills a Bazaar database with N generated products, their photos, sellers and conversations.",
        discussion: """
            Writes straight into the database (thousands of rows per statement), then prints how long \
            each part took and the database's size. Every generated user's password is bazaar-demo. \
            Start bazaar-server on the same --sqlite file or --postgres URL afterwards.

            Examples:
              bazaar-datagen --products 100000 --sqlite /tmp/big.sqlite
              bazaar-datagen --products 1000000 --postgres postgres://bazaar@127.0.0.1:5432/bazaar
            """)

    @Option(help: "How many products to list.") var products: Int
    @Option(help: "How many users sell and chat (default: one per 200 products, at least 10).") var users: Int?
    @Option(help: "How many conversations (default: one per 50 products).") var conversations: Int?
    @Option(help: "Messages in each conversation.") var messagesPerConversation = 20
    @Option(help: "The share of products (0 to 1) with one to three photos (small generated PNGs).") var photoShare =
        0.2
    @Option(help: "The share of products (0 to 1) already sold: they leave the default list and search.")
    var soldShare = 0.0
    @Option(help: "The SQLite file to fill (created if missing).") var sqlite: String?
    @Option(help: "The PostgreSQL URL to fill instead.") var postgres: String?
    @Option(help: "Rows written per statement or transaction.") var batch = 5_000
    @Option(help: "The seed: the same seed makes the same catalogue.") var seed: UInt64 = 1

    func validate() throws {
        guard products >= 0, products <= 100_000_000 else {
            throw ValidationError("--products must be from 0 to 100000000")
        }
        guard (sqlite == nil) != (postgres == nil) else {
            throw ValidationError("give exactly one of --sqlite and --postgres")
        }
        guard (1...100_000).contains(batch) else { throw ValidationError("--batch must be from 1 to 100000") }
        guard (0...1).contains(photoShare) else { throw ValidationError("--photo-share must be from 0 to 1") }
        guard (0...1).contains(soldShare) else { throw ValidationError("--sold-share must be from 0 to 1") }
        guard messagesPerConversation >= 1 else {
            throw ValidationError("--messages-per-conversation must be at least 1")
        }
        if let users, users < 2 { throw ValidationError("--users must be at least 2") }
        if let conversations, conversations < 0 { throw ValidationError("--conversations must not be negative") }
    }

    func run() async throws {
        var configuration = BazaarServerConfiguration(sqlitePath: sqlite ?? "bazaar.sqlite")
        if let postgres {
            do {
                configuration.postgres = try PostgresURL(postgres)
            } catch {
                throw ValidationError("--postgres: \(error)")
            }
        }
        var logger = Logger(label: "bazaar-datagen")
        logger.logLevel = .warning
        let writer = try await CatalogueBulk.open(configuration: configuration, logger: logger)
        do {
            try await fill(writer)
            await writer.close()
        } catch {
            await writer.close()
            throw error
        }
    }

    private func fill(_ writer: any CatalogueBulkWriter) async throws {
        var generator = CatalogueGenerator(seed: seed)
        let userCount = users ?? max(10, products / 200)
        let clock = ContinuousClock()
        let started = clock.now
        let hash = try await CatalogueBulk.passwordHash("bazaar-demo", cost: 10)
        var userIds: [String] = []
        for first in stride(from: 0, to: userCount, by: batch) {
            let made = (first..<min(first + batch, userCount)).map { generator.user($0, passwordHash: hash) }
            try await writer.insert(users: made)
            userIds += made.map(\.id)
        }
        let usersDone = clock.now
        var photoCount = 0
        var conversationProducts: [Product] = []
        let conversationCount = conversations ?? products / 50
        let every = conversationCount == 0 ? Int.max : max(1, products / max(conversationCount, 1))
        for first in stride(from: 0, to: products, by: batch) {
            let made = (first..<min(first + batch, products)).map { index in
                var product = generator.product(index, sellers: userIds)
                // Decided by the index alone, not the generator's stream: the same seed makes the
                // same catalogue with any share sold, so runs with and without compare like for like.
                if CatalogueGenerator.isSold(index, share: soldShare) { product.status = .sold }
                return product
            }
            let photos = made.flatMap { generator.photos(of: $0, share: photoShare) }
            try await writer.insert(products: made, photos: photos)
            photoCount += photos.count
            conversationProducts += made.enumerated().filter { (first + $0.offset) % every == 0 }.map(\.element)
            if (first / batch) % 20 == 19 {
                report("products", done: first + made.count, of: products, since: usersDone)
            }
        }
        let productsDone = clock.now
        var items: [BulkConversation] = []
        var written = 0
        for (index, product) in conversationProducts.prefix(conversationCount).enumerated() {
            var buyer = generator.random.pick(userIds)
            if buyer == product.sellerId { buyer = userIds[(userIds.firstIndex(of: buyer)! + 1) % userIds.count] }
            items.append(
                generator.conversation(
                    about: product, buyer: buyer, length: messagesPerConversation,
                    at: product.createdAt + 3_600 + Double(index)))
            if items.count * messagesPerConversation >= batch {
                try await writer.insert(conversations: items)
                written += items.count
                items = []
            }
        }
        try await writer.insert(conversations: items)
        written += items.count
        let conversationsDone = clock.now
        try await writer.finish()
        let finished = clock.now
        let bytes = try await writer.databaseBytes()
        func seconds(_ duration: Duration) -> String {
            String(
                format: "%.1f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        }
        print("users:         \(userCount) in \(seconds(usersDone - started)) (one bcrypt hash, shared)")
        print("products:      \(products) with \(photoCount) photos in \(seconds(productsDone - usersDone))")
        print(
            "conversations: \(written) with \(written * messagesPerConversation) messages in \(seconds(conversationsDone - productsDone))"
        )
        print("finish:        \(seconds(finished - conversationsDone)) (statistics, index merge)")
        print(
            "total:         \(seconds(finished - started)); database \(String(format: "%.1f", Double(bytes) / 1_048_576)) MiB"
        )
    }

    private func report(_ what: String, done: Int, of total: Int, since: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - since
        let rate =
            Double(done)
            / max(0.001, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        FileHandle.standardError.write(Data("  \(what): \(done) of \(total) (\(Int(rate))/s)\n".utf8))
    }
}
