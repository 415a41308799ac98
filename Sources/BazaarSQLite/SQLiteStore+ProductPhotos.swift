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
            guard order.append(photo.id) else { return .limitReached }
            // Writes are serialised, so the sum cannot move before the insert.
            let stored =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COALESCE(SUM(LENGTH(pp.data)), 0) FROM product_photos pp
                        JOIN products p ON p.id = pp.product_id WHERE p.seller_id = ?
                        """, arguments: [sellerId]) ?? 0
            guard stored + photo.photo.data.count <= ProductPhotoOrder.bytesPerSeller else { return .storageFull }
            try db.execute(
                sql:
                    "INSERT INTO product_photos (id, product_id, media_type, digest, data, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    photo.id, productId, photo.photo.mediaType, photo.photo.digest, photo.photo.data,
                    StoredValues.millis(photo.photo.updatedAt),
                ])
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

    /// One photo of a product, or `nil`.
    public func productPhoto(productId: String, photoId: String) async throws -> StoredPhoto? {
        try await pool.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT media_type, data, digest, created_at FROM product_photos WHERE id = ? AND product_id = ?",
                arguments: [photoId, productId]
            ).map { row in try Self.storedPhoto(row, timeColumn: "created_at") }
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
