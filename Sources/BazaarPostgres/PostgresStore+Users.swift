import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Creates a user; a taken username (also one taken by another replica a moment ago) is
    /// ``StoreError/conflict(_:)``.
    public func createUser(_ new: NewUser) async throws -> UserRecord {
        let rows = try await database.rows(
            """
            INSERT INTO users (id, username, display_name, bio, password_hash, photo_digest, created_at)
            VALUES (\(new.id), \(new.username), \(new.displayName), NULL, \(new.passwordHash), NULL, \(StoredValues.millis(new.createdAt)))
            ON CONFLICT (username) DO NOTHING
            RETURNING \(unescaped: Self.userColumns)
            """)
        guard let row = rows.first else { throw StoreError.conflict("username") }
        return try Self.userRecord(row)
    }

    /// The user with this id, or `nil`.
    public func user(id: String) async throws -> UserRecord? {
        try await database.rows("SELECT \(unescaped: Self.userColumns) FROM users WHERE id = \(id)").first.map(
            Self.userRecord)
    }

    /// The user with this username, or `nil`.
    public func user(username: String) async throws -> UserRecord? {
        try await database.rows("SELECT \(unescaped: Self.userColumns) FROM users WHERE username = \(username)").first
            .map(Self.userRecord)
    }

    /// Gives the user with this username `role`; `nil` when there is none.
    public func setRole(_ role: UserRole, username: String) async throws -> UserRecord? {
        try await database.rows(
            """
            UPDATE users SET role = \(role.rawValue) WHERE username = \(username)
            RETURNING \(unescaped: Self.userColumns)
            """
        ).first.map(Self.userRecord)
    }

    /// Every user with `role`, by username.
    public func users(withRole role: UserRole) async throws -> [UserRecord] {
        try await database.rows(
            "SELECT \(unescaped: Self.userColumns) FROM users WHERE role = \(role.rawValue) ORDER BY username"
        ).map(Self.userRecord)
    }

    /// Changes display name and/or bio in one statement.
    public func updateProfile(userId: String, displayName: String?, bio: BioChange) async throws -> UserRecord? {
        let (keepBio, newBio): (Bool, String?) =
            switch bio {
            case .keep: (true, nil)
            case .clear: (false, nil)
            case .set(let text): (false, text)
            }
        return try await database.rows(
            """
            UPDATE users SET display_name = COALESCE(\(displayName)::TEXT, display_name),
                bio = CASE WHEN \(keepBio) THEN bio ELSE \(newBio)::TEXT END
            WHERE id = \(userId)
            RETURNING \(unescaped: Self.userColumns)
            """
        ).first.map(Self.userRecord)
    }

    /// Replaces the user's photo (sizes in `photo_sizes`, only the digest on the `users` row).
    public func setPhoto(userId: String, photo: PhotoSizes) async throws -> UserRecord? {
        let full = photo.full
        return try await database.withTransaction { transaction in
            let updated = try await transaction.rows(
                "UPDATE users SET photo_digest = \(full.digest) WHERE id = \(userId) RETURNING \(unescaped: Self.userColumns)"
            )
            guard let row = updated.first else { return nil }
            try await transaction.rows(
                """
                INSERT INTO photos (user_id, media_type, digest, data, updated_at)
                VALUES (\(userId), \(full.mediaType), \(full.digest), \(Data()), \(StoredValues.millis(full.updatedAt)))
                ON CONFLICT (user_id) DO UPDATE SET media_type = EXCLUDED.media_type, digest = EXCLUDED.digest,
                    data = EXCLUDED.data, updated_at = EXCLUDED.updated_at
                """)
            try await Self.insertSizes(transaction, photo, photoId: userId)
            return try Self.userRecord(row)
        }
    }

    /// One size of the user's photo, or `nil`.
    public func photo(userId: String, size: PhotoSize) async throws -> StoredPhoto? {
        guard
            let row = try await database.rows(
                """
                SELECT \(unescaped: Self.sizeOrUploadColumns("u")), u.updated_at AS at
                FROM photos u LEFT JOIN photo_sizes ps ON ps.photo_id = u.user_id AND ps.size = \(size.rawValue)
                WHERE u.user_id = \(userId)
                """
            ).first
        else { return nil }
        return try Self.storedPhoto(row.makeRandomAccess(), timeColumn: "at")
    }

    /// A photo from a row of `media_type`, `data`, `digest` and the time column named.
    static func storedPhoto(_ cells: PostgresRandomAccessRow, timeColumn: String) throws -> StoredPhoto {
        StoredPhoto(
            mediaType: try cells["media_type"].decode(String.self),
            data: try cells["data"].decode(Data.self),
            digest: try cells["digest"].decode(String.self),
            updatedAt: StoredValues.date(try cells[timeColumn].decode(Int64.self)))
    }
}
