import BazaarAPI
import BazaarStorage
import Foundation

/// Everything of one account, as files: what `GET /v1/users/me/export` zips.
public struct AccountExport: Sendable {
    /// One file of the export: its path inside the archive and its bytes.
    public struct File: Sendable, Equatable {
        /// The path inside the archive (`profile.json`, `photos/profile.jpg`).
        public var path: String
        /// The bytes.
        public var data: Data
    }

    /// The files, in the order they are written.
    public var files: [File]
}

/// Gathers an account's data for its owner (GDPR's right of access and portability), written
/// once for every storage engine.
///
/// The export holds the user's own profile, listings (every status, with their photos),
/// conversations and every message in them, the offers in those conversations, saved products,
/// reviews written and received, notifications and sessions: what the user can already read,
/// and nothing of any conversation they are not in. Each export costs one of the user's
/// ``QuotaAction/export`` quota.
public struct AccountExportService: Sendable {
    let store: any BazaarStore
    let quotas: QuotaLimiter

    /// A service over `store`, charging `quotas`.
    package init(store: any BazaarStore, quotas: QuotaLimiter) {
        self.store = store
        self.quotas = quotas
    }

    /// How many rows each read of the export asks for at once.
    static let page = 200

    /// The export of `userId`'s account.
    public func export(_ userId: String) async throws -> AccountExport {
        try quotas.charge(.export, by: userId)
        guard let record = try await store.existingUser(id: userId) else {
            throw DomainError.notFound("The user")
        }
        var files: [AccountExport.File] = []
        let encoder = Self.makeEncoder()
        func add(_ path: String, _ value: some Encodable) throws {
            files.append(AccountExport.File(path: path, data: try encoder.encode(value)))
        }
        try add("profile.json", record.me)

        let listings = try await everyListing(of: userId)
        try add("listings.json", listings)
        let conversations = try await allPages { (position: ConversationPosition?) in
            let page = try await store.conversations(viewerId: userId, before: position, limit: Self.page)
            return (page.items, page.next)
        }
        try add("conversations.json", conversations)
        var messages: [Message] = []
        var offers: [Offer] = []
        for conversation in conversations {
            messages += try await allPages { (position: Int64?) in
                let slice = try await store.messages(
                    conversationId: conversation.id, viewerId: userId, before: position, limit: Self.page)
                return (slice?.items ?? [], slice?.next)
            }.reversed()
            offers += try await allPages { (position: Int64?) in
                let slice = try await store.offers(conversationId: conversation.id, before: position, limit: Self.page)
                return (slice.items, slice.next)
            }
        }
        try add("messages.json", messages)
        try add("offers.json", offers)
        try add(
            "favourites.json",
            try await allPages { (position: Int64?) in
                let slice = try await store.favourites(userId: userId, before: position, limit: Self.page)
                return (slice.items, slice.next)
            })
        try add(
            "reviews-written.json",
            try await allPages { (position: Int64?) in
                let slice = try await store.reviews(authorId: userId, before: position, limit: Self.page)
                return (slice.items, slice.next)
            })
        try add(
            "reviews-received.json",
            try await allPages { (position: Int64?) in
                let slice = try await store.reviews(subjectId: userId, before: position, limit: Self.page)
                return (slice.items, slice.next)
            })
        try add(
            "notifications.json",
            try await allPages { (position: Int64?) in
                let slice = try await store.notifications(userId: userId, before: position, limit: Self.page)
                return (slice.items, slice.next)
            })
        try add(
            "sessions.json",
            try await store.activeSessions(userId: userId).map { session in
                AccountSession(
                    id: session.id, createdAt: session.createdAt, lastUsedAt: session.lastUsedAt,
                    userAgent: session.userAgent, current: false)
            })
        if let photo = try await store.photo(userId: userId, size: .full) {
            files.append(
                AccountExport.File(path: "photos/profile.\(Self.fileExtension(photo.mediaType))", data: photo.data))
        }
        for product in listings {
            for (index, listed) in product.photos.enumerated() {
                guard let photo = try await store.productPhoto(productId: product.id, photoId: listed.id, size: .full)
                else { continue }
                files.append(
                    AccountExport.File(
                        path: "photos/listings/\(product.id)-\(index + 1).\(Self.fileExtension(photo.mediaType))",
                        data: photo.data))
            }
        }
        return AccountExport(files: files)
    }

    /// Every listing of the seller, any status, newest first.
    private func everyListing(of sellerId: String) async throws -> [Product] {
        var products: [Product] = []
        var position: ProductPosition?
        repeat {
            let page = try await store.products(
                ProductQuery(
                    filters: ProductFilters(sellerId: sellerId, status: .all), order: .newest, after: position,
                    limit: Self.page))
            products += page.items
            position = page.next
        } while position != nil
        return products
    }

    /// Every item of a paged read, page after page.
    private func allPages<Item, Position>(_ read: (Position?) async throws -> ([Item], Position?)) async throws
        -> [Item]
    {
        var items: [Item] = []
        var position: Position?
        repeat {
            let (page, next) = try await read(position)
            items += page
            position = next
        } while position != nil
        return items
    }

    /// The wire's encoder, indented: the files are for people to read too.
    static func makeEncoder() -> JSONEncoder {
        let encoder = BazaarJSON.makeEncoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        return encoder
    }

    static func fileExtension(_ mediaType: String) -> String {
        switch mediaType {
        case "image/png": "png"
        case "image/webp": "webp"
        default: "jpg"
        }
    }
}
