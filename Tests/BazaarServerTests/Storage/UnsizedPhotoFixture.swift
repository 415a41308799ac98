import BazaarPostgres
import BazaarServer
import Foundation
import GRDB
import PostgresNIO
import TestSupport

/// Writes photos as a server from before sizes kept them (the upload's bytes in the photo's own
/// row, a bare id in the product's list), straight into the database of `configuration`: what
/// `bazaar-server photos rebuild` finds after an upgrade.
enum UnsizedPhotoFixture {
    /// Adds photo `photoId` of `data` last to product `productId`.
    static func addProductPhoto(
        _ configuration: BazaarServerConfiguration, productId: String, photoId: String, data: Data
    ) async throws {
        try await run(
            configuration,
            sqlite: { db in
                try db.execute(
                    sql: """
                        INSERT INTO product_photos (id, product_id, media_type, digest, data, created_at)
                        VALUES (?, ?, 'image/jpeg', 'legacy', ?, 0)
                        """, arguments: [photoId, productId, data])
                try db.execute(
                    sql: "UPDATE products SET photo_ids = TRIM(photo_ids || ' ' || ?) WHERE id = ?",
                    arguments: [photoId, productId])
            },
            postgres: { connection, logger in
                try await connection.query(
                    """
                    INSERT INTO product_photos (id, product_id, media_type, digest, data, created_at)
                    VALUES (\(photoId), \(productId), 'image/jpeg', 'legacy', \(data), 0)
                    """, logger: logger)
                try await connection.query(
                    "UPDATE products SET photo_ids = TRIM(photo_ids || ' ' || \(photoId)) WHERE id = \(productId)",
                    logger: logger)
            })
    }

    /// Makes `data` the profile photo of user `userId`.
    static func setProfilePhoto(_ configuration: BazaarServerConfiguration, userId: String, data: Data) async throws {
        try await run(
            configuration,
            sqlite: { db in
                try db.execute(
                    sql: """
                        INSERT INTO photos (user_id, media_type, digest, data, updated_at)
                        VALUES (?, 'image/jpeg', 'legacy0000000000', ?, 0)
                        """, arguments: [userId, data])
                try db.execute(
                    sql: "UPDATE users SET photo_digest = 'legacy0000000000' WHERE id = ?", arguments: [userId])
            },
            postgres: { connection, logger in
                try await connection.query(
                    """
                    INSERT INTO photos (user_id, media_type, digest, data, updated_at)
                    VALUES (\(userId), 'image/jpeg', 'legacy0000000000', \(data), 0)
                    """, logger: logger)
                try await connection.query(
                    "UPDATE users SET photo_digest = 'legacy0000000000' WHERE id = \(userId)", logger: logger)
            })
    }

    private static func run(
        _ configuration: BazaarServerConfiguration, sqlite: @escaping @Sendable (Database) throws -> Void,
        postgres: (PostgresConnection, Logger) async throws -> Void
    ) async throws {
        guard let url = configuration.postgres else {
            try await DatabaseQueue(path: configuration.sqlitePath).write(sqlite)
            return
        }
        let logger = TestServer.quietLogger(label: "unsized-photo-fixture")
        let connection = try await PostgresConnection.connect(
            configuration: try url.connectionConfiguration(), id: 0, logger: logger)
        do {
            try await postgres(connection, logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}
