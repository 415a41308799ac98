import BazaarAPI
import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    /// Creates a user; a taken username is ``StoreError/conflict(_:)``.
    public func createUser(_ new: NewUser) async throws -> UserRecord {
        try await writer.write { db in
            if try Int.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM users WHERE username = ?"), arguments: [new.username]) != nil
            {
                throw StoreError.conflict("username")
            }
            try Self.mappingConflicts("username") {
                try db.run(
                    sql: """
                        INSERT INTO users (id, username, display_name, bio, password_hash, photo_digest, created_at)
                        VALUES (?, ?, ?, NULL, ?, NULL, ?)
                        """,
                    arguments: [
                        new.id, new.username, new.displayName, new.passwordHash, StoredValues.millis(new.createdAt),
                    ])
            }
            guard let record = try Self.fetchUser(db, id: new.id) else { throw StoreError.corrupt("user vanished") }
            return record
        }
    }

    /// The user with this id, or `nil`.
    public func user(id: String) async throws -> UserRecord? {
        try await pool.read { db in try Self.fetchUser(db, id: id) }
    }

    /// The user with this username, or `nil`.
    public func user(username: String) async throws -> UserRecord? {
        try await pool.read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(Self.userColumns) FROM users WHERE username = ?"),
                arguments: [username]
            )
            .map(Self.userRecord)
        }
    }

    /// Gives the user with this username `role`; `nil` when there is none. Safe beside a server
    /// serving the file (another process): a short write, waiting for the server's.
    public func setRole(_ role: UserRole, username: String) async throws -> UserRecord? {
        try await writer.write { db in
            try db.run(sql: "UPDATE users SET role = ? WHERE username = ?", arguments: [role.rawValue, username])
            return try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(Self.userColumns) FROM users WHERE username = ?"),
                arguments: [username]
            ).map(Self.userRecord)
        }
    }

    /// Every user with `role`, by username.
    public func users(withRole role: UserRole) async throws -> [UserRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT \(Self.userColumns) FROM users WHERE role = ? ORDER BY username"),
                arguments: [role.rawValue]
            ).map(Self.userRecord)
        }
    }

    /// Changes display name and/or bio.
    public func updateProfile(userId: String, displayName: String?, bio: BioChange) async throws -> UserRecord? {
        try await writer.write { db in
            if let displayName {
                try db.run(sql: "UPDATE users SET display_name = ? WHERE id = ?", arguments: [displayName, userId])
            }
            switch bio {
            case .keep: break
            case .clear: try db.run(sql: "UPDATE users SET bio = NULL WHERE id = ?", arguments: [userId])
            case .set(let text): try db.run(sql: "UPDATE users SET bio = ? WHERE id = ?", arguments: [text, userId])
            }
            return try Self.fetchUser(db, id: userId)
        }
    }

    /// Replaces the user's photo (sizes in `photo_sizes`, only the digest on the hot `users` row).
    public func setPhoto(userId: String, photo: PhotoSizes) async throws -> UserRecord? {
        try await writer.write { db in
            guard try Self.fetchUser(db, id: userId) != nil else { return nil }
            let full = photo.full
            // Its delete trigger takes the old sizes with it.
            try db.run(sql: "DELETE FROM photos WHERE user_id = ?", arguments: [userId])
            try db.run(
                sql: "INSERT INTO photos (user_id, media_type, digest, data, updated_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [userId, full.mediaType, full.digest, Data(), StoredValues.millis(full.updatedAt)])
            try Self.insertSizes(db, photo, photoId: userId)
            try db.run(sql: "UPDATE users SET photo_digest = ? WHERE id = ?", arguments: [full.digest, userId])
            return try Self.fetchUser(db, id: userId)
        }
    }

    /// One size of the user's photo, or `nil`.
    public func photo(userId: String, size: PhotoSize) async throws -> StoredPhoto? {
        try await pool.read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT \(Self.sizeOrUploadColumns("u")), u.updated_at AS at
                        FROM photos u LEFT JOIN photo_sizes ps ON ps.photo_id = u.user_id AND ps.size = ?
                        WHERE u.user_id = ?
                        """),
                arguments: [size.rawValue, userId]
            ).map { row in try Self.storedPhoto(row, timeColumn: "at") }
        }
    }

    /// A photo from a row of `media_type`, `data`, `digest` and the time column named.
    static func storedPhoto(_ row: Row, timeColumn: String) throws -> StoredPhoto {
        StoredPhoto(
            mediaType: try row.decode(String.self, forColumn: "media_type"),
            data: try row.decode(Data.self, forColumn: "data"),
            digest: try row.decode(String.self, forColumn: "digest"),
            updatedAt: StoredValues.date(try row.decode(Int64.self, forColumn: timeColumn)))
    }
}
