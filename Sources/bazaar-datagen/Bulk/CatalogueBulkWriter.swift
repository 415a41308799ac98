import BazaarAPI
import BazaarDomain
import BazaarPostgres
import BazaarServer
import BazaarStorage
import Foundation
import Logging

/// Writes a generated catalogue straight into a database, thousands of rows per statement: how
/// `bazaar-datagen` fills a server with a million products in minutes rather than a million
/// HTTP calls. The rows are exactly what the server's own writes make (search vectors included),
/// so a server started on the database afterwards cannot tell them apart.
public protocol CatalogueBulkWriter: Sendable {
    /// Adds users (their password hashes already made).
    func insert(users: [NewUser]) async throws
    /// Adds products, which take their list positions in the order given, with `photos` of them
    /// (each product's in the order given: the first is its cover).
    func insert(products: [Product], photos: [BulkProductPhoto]) async throws
    /// Adds conversations with their messages, in the order given.
    func insert(conversations: [BulkConversation]) async throws
    /// Brings the planner's statistics up to date (and merges SQLite's full-text index).
    func finish() async throws
    /// How many bytes the database takes on disk now.
    func databaseBytes() async throws -> Int64
    /// Closes the connection.
    func close() async
}

/// A photo of one of the products written in the same ``CatalogueBulkWriter/insert(products:photos:)``.
public struct BulkProductPhoto: Sendable {
    /// The product it shows.
    public var productId: String
    /// Its id and image.
    public var photo: NewProductPhoto

    /// Makes a product photo.
    public init(productId: String, photo: NewProductPhoto) {
        self.productId = productId
        self.photo = photo
    }
}

extension [BulkProductPhoto] {
    /// The `photo_ids` column of each product that has photos, keyed by product id.
    func photoColumns() -> [String: String] {
        var orders: [String: ProductPhotoOrder] = [:]
        for item in self {
            _ = orders[item.productId, default: ProductPhotoOrder(column: "")].append(item.photo.entry)
        }
        return orders.mapValues(\.column)
    }
}

/// A conversation between two users about a product, with its messages oldest first.
public struct BulkConversation: Sendable {
    /// The conversation's id.
    public var id: String
    /// The two people.
    public var userIds: (String, String)
    /// What it is about.
    public var productId: String
    /// When it started.
    public var createdAt: Date
    /// Its messages, oldest first (at least one).
    public var messages: [BulkMessage]

    /// Makes a conversation.
    public init(id: String, userIds: (String, String), productId: String, createdAt: Date, messages: [BulkMessage]) {
        self.id = id
        self.userIds = userIds
        self.productId = productId
        self.createdAt = createdAt
        self.messages = messages
    }
}

/// One message of a ``BulkConversation``.
public struct BulkMessage: Sendable {
    /// The message's id.
    public var id: String
    /// Who sent it (one of the two people).
    public var senderId: String
    /// The text.
    public var body: String
    /// When it was sent.
    public var createdAt: Date

    /// Makes a message.
    public init(id: String, senderId: String, body: String, createdAt: Date) {
        self.id = id
        self.senderId = senderId
        self.body = body
        self.createdAt = createdAt
    }
}

/// Opens a ``CatalogueBulkWriter`` on the database a configuration names.
public enum CatalogueBulk {
    /// A writer on the configured database (SQLite file or PostgreSQL URL), migrated first.
    public static func open(configuration: BazaarServerConfiguration, logger: Logger) async throws
        -> any CatalogueBulkWriter
    {
        if let url = configuration.postgres {
            try await PostgresMigrations.migrate(url: url, logger: logger)
            return PostgresCatalogueWriter(
                database: BazaarPostgres.PostgresDatabase(
                    url: url, maximumConnections: 4, operationTimeout: .seconds(600), logger: logger),
                url: url)
        }
        return try SQLiteCatalogueWriter(path: configuration.sqlitePath)
    }

    /// A bcrypt hash of `password` as the server makes them, for generated users to sign in with.
    public static func passwordHash(_ password: String, cost: Int) async throws -> String {
        try await PasswordHasher(cost: cost).hash(password)
    }
}
