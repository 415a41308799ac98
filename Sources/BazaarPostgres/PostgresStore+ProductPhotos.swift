import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Adds a photo as the last of a product `sellerId` sells.
    public func addProductPhoto(productId: String, sellerId: String, photo: NewProductPhoto) async throws
        -> ProductPhotoChange
    {
        try await changePhotos(productId: productId, sellerId: sellerId) { transaction, order in
            guard order.append(photo.entry) else { return .limitReached }
            // The seller's row is locked first, so two uploads of one seller at once (to two
            // products) are summed one after the other and cannot both pass the cap.
            try await transaction.rows("SELECT 1 FROM users WHERE id = \(sellerId) FOR UPDATE")
            let stored =
                try await transaction.rows(
                    """
                    SELECT (COALESCE(SUM(LENGTH(pp.data)), 0)
                        + (SELECT COALESCE(SUM(LENGTH(ps.data)), 0) FROM photo_sizes ps
                           JOIN product_photos sized ON sized.id = ps.photo_id
                           JOIN products owned ON owned.id = sized.product_id WHERE owned.seller_id = \(sellerId)))::BIGINT
                    FROM product_photos pp JOIN products p ON p.id = pp.product_id WHERE p.seller_id = \(sellerId)
                    """
                ).first?.decode(Int.self) ?? 0
            guard stored + photo.sizes.byteCount <= photo.allowance else { return .storageFull }
            let full = photo.sizes.full
            try await transaction.rows(
                """
                INSERT INTO product_photos (id, product_id, media_type, digest, data, created_at)
                VALUES (\(photo.id), \(productId), \(full.mediaType), \(full.digest), \(Data()),
                    \(StoredValues.millis(full.updatedAt)))
                """)
            try await Self.insertSizes(transaction, photo.sizes, photoId: photo.id)
            return nil
        }
    }

    /// Removes a photo from a product `sellerId` sells.
    public func removeProductPhoto(productId: String, sellerId: String, photoId: String) async throws
        -> ProductPhotoChange
    {
        try await changePhotos(productId: productId, sellerId: sellerId) { transaction, order in
            guard order.remove(photoId) else { return .notFound }
            try await transaction.rows("DELETE FROM product_photos WHERE id = \(photoId) AND product_id = \(productId)")
            return nil
        }
    }

    /// Puts the photos of a product `sellerId` sells in `order`.
    public func reorderProductPhotos(productId: String, sellerId: String, order new: [String]) async throws
        -> ProductPhotoChange
    {
        try await changePhotos(productId: productId, sellerId: sellerId) { _, order in
            order.reorder(new) ? nil : .mismatch
        }
    }

    /// One size of one photo of a product, or `nil`.
    public func productPhoto(productId: String, photoId: String, size: PhotoSize) async throws -> StoredPhoto? {
        guard
            let row = try await database.rows(
                """
                SELECT \(unescaped: Self.sizeOrUploadColumns("pp")), pp.created_at AS at
                FROM product_photos pp LEFT JOIN photo_sizes ps ON ps.photo_id = pp.id AND ps.size = \(size.rawValue)
                WHERE pp.id = \(photoId) AND pp.product_id = \(productId)
                """
            ).first
        else { return nil }
        return try Self.storedPhoto(row.makeRandomAccess(), timeColumn: "at")
    }

    /// In one transaction, the product's row locked: checks it is `sellerId`'s, lets `change`
    /// edit its order (and the photo rows; it returns a failure or `nil`), and saves the order.
    private func changePhotos(
        productId: String, sellerId: String,
        _ change: @escaping @Sendable (PostgresTransaction, inout ProductPhotoOrder) async throws -> ProductPhotoChange?
    ) async throws -> ProductPhotoChange {
        try await database.withTransaction { transaction in
            guard
                let row = try await transaction.rows(
                    "SELECT seller_id, photo_ids FROM products WHERE id = \(productId) FOR UPDATE"
                ).first,
                try row.makeRandomAccess()["seller_id"].decode(String.self) == sellerId
            else { return .notFound }
            var order = ProductPhotoOrder(column: try row.makeRandomAccess()["photo_ids"].decode(String.self))
            if let failure = try await change(transaction, &order) { return failure }
            let updated = try await transaction.rows(
                "UPDATE products SET photo_ids = \(order.column) WHERE id = \(productId) RETURNING \(unescaped: Self.productColumns)"
            )
            guard let product = try updated.first.map(Self.product) else {
                throw StoreError.corrupt("product vanished")
            }
            return .changed(product)
        }
    }
}
