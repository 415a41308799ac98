import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Writes every size of `sizes` under `photoId`, replacing any there, in one statement.
    static func insertSizes(_ transaction: PostgresTransaction, _ sizes: PhotoSizes, photoId: String) async throws {
        let (thumb, medium, full) = (sizes.thumb, sizes.medium, sizes.full)
        try await transaction.rows(
            """
            INSERT INTO photo_sizes (photo_id, size, media_type, digest, data) VALUES
                (\(photoId), 'thumb', \(thumb.mediaType), \(thumb.digest), \(thumb.data)),
                (\(photoId), 'medium', \(medium.mediaType), \(medium.digest), \(medium.data)),
                (\(photoId), 'full', \(full.mediaType), \(full.digest), \(full.data))
            ON CONFLICT (photo_id, size) DO UPDATE SET media_type = EXCLUDED.media_type, digest = EXCLUDED.digest,
                data = EXCLUDED.data
            """)
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
        try await database.rows(
            """
            SELECT photo_id, product_id, data FROM (
                SELECT id AS photo_id, product_id, data FROM product_photos WHERE LENGTH(data) > 0
                UNION ALL
                SELECT user_id AS photo_id, NULL AS product_id, data FROM photos WHERE LENGTH(data) > 0) unsized
            WHERE photo_id COLLATE "C" > \(after ?? "") ORDER BY photo_id COLLATE "C" LIMIT \(limit)
            """
        ).map { row in
            let cells = row.makeRandomAccess()
            let photoId = try cells["photo_id"].decode(String.self)
            let owner: UnsizedPhoto.Owner =
                if let productId = try cells["product_id"].decode(String?.self) {
                    .product(productId: productId, photoId: photoId)
                } else {
                    .profile(userId: photoId)
                }
            return UnsizedPhoto(owner: owner, data: try cells["data"].decode(Data.self))
        }
    }

    /// Stores the sizes of an unsized photo and empties its upload.
    public func storeSizes(_ sizes: PhotoSizes, of owner: UnsizedPhoto.Owner) async throws -> Bool {
        let full = sizes.full
        return try await database.withTransaction { transaction in
            switch owner {
            case .product(let productId, let photoId):
                guard
                    let row = try await transaction.rows(
                        """
                        SELECT p.photo_ids FROM product_photos pp JOIN products p ON p.id = pp.product_id
                        WHERE pp.id = \(photoId) AND pp.product_id = \(productId) AND LENGTH(pp.data) > 0
                        FOR UPDATE
                        """
                    ).first
                else { return false }
                var order = ProductPhotoOrder(column: try row.decode(String.self))
                _ = order.setDimensions(sizes.dimensions, of: photoId)
                try await transaction.rows(
                    """
                    UPDATE product_photos SET media_type = \(full.mediaType), digest = \(full.digest), data = \(Data())
                    WHERE id = \(photoId)
                    """)
                try await transaction.rows(
                    "UPDATE products SET photo_ids = \(order.column) WHERE id = \(productId)")
            case .profile(let userId):
                guard
                    try await transaction.rows(
                        "SELECT 1 FROM photos WHERE user_id = \(userId) AND LENGTH(data) > 0 FOR UPDATE"
                    ).first != nil
                else { return false }
                try await transaction.rows(
                    """
                    UPDATE photos SET media_type = \(full.mediaType), digest = \(full.digest), data = \(Data())
                    WHERE user_id = \(userId)
                    """)
                try await transaction.rows("UPDATE users SET photo_digest = \(full.digest) WHERE id = \(userId)")
            }
            try await Self.insertSizes(transaction, sizes, photoId: owner.photoId)
            return true
        }
    }
}
