import BazaarAPI
import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    /// Adds a photo as the last of a product `sellerId` sells.
    public func addProductPhoto(productId: String, sellerId: String, photo: NewProductPhoto) async throws
        -> ProductPhotoChange
    {
        try await changePhotos(productId: productId, sellerId: sellerId) { db, order in
            guard order.append(photo.entry) else { return .limitReached }
            // Writes are serialised, so the sum cannot move before the insert.
            let stored =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COALESCE(SUM(LENGTH(pp.data)), 0)
                            + (SELECT COALESCE(SUM(LENGTH(ps.data)), 0) FROM photo_sizes ps
                               JOIN product_photos sized ON sized.id = ps.photo_id
                               JOIN products owned ON owned.id = sized.product_id WHERE owned.seller_id = ?1)
                        FROM product_photos pp JOIN products p ON p.id = pp.product_id WHERE p.seller_id = ?1
                        """, arguments: [sellerId]) ?? 0
            guard stored + photo.sizes.byteCount <= photo.allowance else { return .storageFull }
            let full = photo.sizes.full
            try db.execute(
                sql:
                    "INSERT INTO product_photos (id, product_id, media_type, digest, data, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    photo.id, productId, full.mediaType, full.digest, Data(), StoredValues.millis(full.updatedAt),
                ])
            try Self.insertSizes(db, photo.sizes, photoId: photo.id)
            return nil
        }
    }

    /// Removes a photo from a product `sellerId` sells.
    public func removeProductPhoto(productId: String, sellerId: String, photoId: String) async throws
        -> ProductPhotoChange
    {
        try await changePhotos(productId: productId, sellerId: sellerId) { db, order in
            guard order.remove(photoId) else { return .notFound }
            try db.execute(
                sql: "DELETE FROM product_photos WHERE id = ? AND product_id = ?", arguments: [photoId, productId])
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
        try await pool.read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT \(Self.sizeOrUploadColumns("pp")), pp.created_at AS at
                        FROM product_photos pp LEFT JOIN photo_sizes ps ON ps.photo_id = pp.id AND ps.size = ?
                        WHERE pp.id = ? AND pp.product_id = ?
                        """),
                arguments: [size.rawValue, photoId, productId]
            ).map { row in try Self.storedPhoto(row, timeColumn: "at") }
        }
    }

    /// In one write: checks the product is `sellerId`'s, lets `change` edit its order (and the
    /// photo rows; it returns a failure or `nil`), and saves the order.
    private func changePhotos(
        productId: String, sellerId: String,
        _ change: @escaping @Sendable (Database, inout ProductPhotoOrder) throws -> ProductPhotoChange?
    ) async throws -> ProductPhotoChange {
        try await writer.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT seller_id, photo_ids FROM products WHERE id = ?", arguments: [productId]),
                try row.decode(String.self, forColumn: "seller_id") == sellerId
            else { return .notFound }
            var order = ProductPhotoOrder(column: try row.decode(String.self, forColumn: "photo_ids"))
            if let failure = try change(db, &order) { return failure }
            try db.execute(sql: "UPDATE products SET photo_ids = ? WHERE id = ?", arguments: [order.column, productId])
            guard let product = try Self.fetchProduct(db, id: productId) else {
                throw StoreError.corrupt("product vanished")
            }
            return .changed(product)
        }
    }
}
