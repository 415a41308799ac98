import BazaarAPI
import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    /// Writes every size of `sizes` under `photoId`, replacing any there.
    static func insertSizes(_ db: Database, _ sizes: PhotoSizes, photoId: String) throws {
        for (size, photo) in sizes.all {
            try db.run(
                sql: """
                    INSERT OR REPLACE INTO photo_sizes (photo_id, size, media_type, digest, data)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [photoId, size.rawValue, photo.mediaType, photo.digest, photo.data])
        }
    }

    /// The `media_type`, `data` and `digest` of a size (alias `ps`) joined to its upload's row
    /// (alias `upload`), falling back to the upload itself for a photo from before sizes.
    static func sizeOrUploadColumns(_ upload: String) -> String {
        """
        COALESCE(ps.media_type, \(upload).media_type) AS media_type,
        CASE WHEN ps.photo_id IS NULL THEN \(upload).data ELSE ps.data END AS data,
        COALESCE(ps.digest, \(upload).digest) AS digest
        """
    }

    /// Up to `limit` photos from before sizes, by photo id after `after`.
    public func unsizedPhotos(after: String?, limit: Int) async throws -> [UnsizedPhoto] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT photo_id, product_id, data FROM (
                        SELECT id AS photo_id, product_id, data FROM product_photos WHERE LENGTH(data) > 0
                        UNION ALL
                        SELECT user_id AS photo_id, NULL AS product_id, data FROM photos WHERE LENGTH(data) > 0)
                    WHERE photo_id > ? ORDER BY photo_id LIMIT ?
                    """,
                arguments: [after ?? "", limit]
            ).map { row in
                let photoId = try row.decode(String.self, forColumn: "photo_id")
                let owner: UnsizedPhoto.Owner =
                    if let productId = try row.decode(String?.self, forColumn: "product_id") {
                        .product(productId: productId, photoId: photoId)
                    } else {
                        .profile(userId: photoId)
                    }
                return UnsizedPhoto(owner: owner, data: try row.decode(Data.self, forColumn: "data"))
            }
        }
    }

    /// Stores the sizes of an unsized photo and empties its upload.
    public func storeSizes(_ sizes: PhotoSizes, of owner: UnsizedPhoto.Owner) async throws -> Bool {
        try await writer.write { db in
            let full = sizes.full
            switch owner {
            case .product(let productId, let photoId):
                guard
                    let column = try String.fetchOne(
                        db,
                        sql: """
                            SELECT p.photo_ids FROM product_photos pp JOIN products p ON p.id = pp.product_id
                            WHERE pp.id = ? AND pp.product_id = ? AND LENGTH(pp.data) > 0
                            """, arguments: [photoId, productId])
                else { return false }
                var order = ProductPhotoOrder(column: column)
                _ = order.setDimensions(sizes.dimensions, of: photoId)
                try db.run(
                    sql: "UPDATE product_photos SET media_type = ?, digest = ?, data = ? WHERE id = ?",
                    arguments: [full.mediaType, full.digest, Data(), photoId])
                try db.run(sql: "UPDATE products SET photo_ids = ? WHERE id = ?", arguments: [order.column, productId])
            case .profile(let userId):
                guard
                    try Bool.fetchOne(
                        db, sql: "SELECT 1 FROM photos WHERE user_id = ? AND LENGTH(data) > 0", arguments: [userId])
                        != nil
                else { return false }
                try db.run(
                    sql: "UPDATE photos SET media_type = ?, digest = ?, data = ? WHERE user_id = ?",
                    arguments: [full.mediaType, full.digest, Data(), userId])
                try db.run(sql: "UPDATE users SET photo_digest = ? WHERE id = ?", arguments: [full.digest, userId])
            }
            try Self.insertSizes(db, sizes, photoId: owner.photoId)
            return true
        }
    }
}
