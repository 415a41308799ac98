import BazaarAPI
import BazaarStorage
import Foundation

/// The rules of an account, written once for every storage engine: who may register with what,
/// sign in, change their password and delete their account.
///
/// A username is 3-32 characters of `a-z 0-9 _ .` and unique, for ever: a deleted account keeps
/// its name from everyone, and `deleted` is nobody's. A password is 8-128 characters, stored only
/// as a bcrypt hash; a display name 1-64 characters. Every password check (signing in, changing
/// the password, deleting the account) takes a bounded place (``PasswordHasher``) and counts
/// toward the sign-in throttle of the account and the address until it succeeds, so guessing a
/// password through any of them is as slow as through signing in.
public struct AccountService: Sendable {
    let store: any BazaarStore
    let events: any LiveEventBus
    let hasher: PasswordHasher
    let throttle: any LoginThrottling
    let clock: DomainClock

    /// A service writing to `store`, announcing on `events`, hashing with `hasher`, counting
    /// failed password checks in `throttle`, timing and naming with `clock`.
    package init(
        store: any BazaarStore, events: any LiveEventBus, hasher: PasswordHasher, throttle: any LoginThrottling,
        clock: DomainClock
    ) {
        self.store = store
        self.events = events
        self.hasher = hasher
        self.throttle = throttle
        self.clock = clock
    }

    private static let invalidCredentials = DomainError.unauthorized(
        code: "invalid_credentials", message: "The username or password is wrong.")

    /// Creates an account and returns it.
    ///
    /// - Throws: ``DomainError/invalidField(_:_:)`` for a field out of its rule,
    ///   ``DomainError/conflict(code:message:)`` `username_taken` when the name is someone's (or
    ///   was: a deleted account's name is never given again), ``DomainError/busy(_:retryAfter:)``
    ///   when the password checks are at their bound.
    public func register(username: String, password: String, displayName: String) async throws -> UserRecord {
        try Validation.username(username)
        try Validation.password(password)
        try Validation.displayName(displayName)
        guard username != User.deletedUsername else { throw Self.usernameTaken }
        let hash = try await hasher.admitted(.newAccount) { work in try await work.hash(password) }
        do {
            return try await store.createUser(
                NewUser(
                    id: clock.newId(), username: username, displayName: displayName, passwordHash: hash,
                    createdAt: clock.now()))
        } catch StoreError.conflict {
            throw Self.usernameTaken
        }
    }

    private static let usernameTaken = DomainError.conflict(code: "username_taken", message: "That username is taken.")

    /// The account `username` names when `password` is its password, from `address`.
    ///
    /// - Throws: `401 invalid_credentials` for a wrong pair (an unknown or deleted account costs a
    ///   bcrypt check too, so timing does not tell which names exist), `429` past the throttle,
    ///   `403 account_suspended` for a suspended account whose password was right (so the
    ///   suspension is told only to its owner).
    public func signIn(username: String, password: String, address: String?) async throws -> UserRecord {
        // A name no account can have (NUL, 3 KB, capitals) signs no one in, and never reaches the
        // store or the throttle: SQLite compared "ada\0" equal to "ada", and PostgreSQL cannot
        // index a 3 KB throttle key.
        guard Validation.isUsername(username) else { throw Self.invalidCredentials }
        let record = try await checked(password, of: username, address: address) { _ in
            try await store.existingUser(username: username)
        } refusal: {
            Self.invalidCredentials
        }
        guard record.suspendedAt == nil else {
            throw DomainError.forbidden(
                code: "account_suspended", message: "This account is suspended by the moderators.")
        }
        return record
    }

    /// Changes the password of `userId` from `currentPassword` to `newPassword`; every session
    /// but `sessionId` (the caller's) is revoked at once, on every replica.
    ///
    /// - Throws: `422` for a new password out of its rule, `403 wrong_password` (counted by the
    ///   throttle, `429` past it).
    public func changePassword(
        of userId: String, from currentPassword: String, to newPassword: String, keeping sessionId: String,
        address: String?
    ) async throws {
        try Validation.password(newPassword, field: "newPassword")
        let record = try await activeRecord(userId)
        let hash = try await checked(currentPassword, of: record.user.username, address: address) { _ in
            record
        } refusal: {
            Self.wrongPassword
        } then: { work, _ in
            try await work.hash(newPassword)
        }
        try await store.setPassword(userId: userId, hash: hash, keepingSession: sessionId, now: clock.now())
    }

    /// Deletes the account of `userId`, after checking `password`: every session revoked and
    /// every socket closed on every replica, their listings, photos, saves and blocks gone, and
    /// what others still see of them (conversations, messages, reviews) shown as
    /// `User.deleted(id:createdAt:)`.
    ///
    /// - Throws: `403 wrong_password` (counted by the throttle, `429` past it).
    public func delete(_ userId: String, password: String, address: String?) async throws {
        let record = try await activeRecord(userId)
        _ = try await checked(password, of: record.user.username, address: address) { _ in
            record
        } refusal: {
            Self.wrongPassword
        }
        try await store.eraseAccount(userId: userId, now: clock.now())
        await events.productsChanged()
    }

    private static let wrongPassword = DomainError.forbidden(
        code: "wrong_password", message: "The password is wrong.")

    /// The record of a signed-in caller (a session outliving its account finds nothing: 404).
    private func activeRecord(_ userId: String) async throws -> UserRecord {
        guard let record = try await store.existingUser(id: userId) else {
            throw DomainError.notFound("The user")
        }
        return record
    }

    /// Checks `password` against the record `find` gives, inside a bounded place and under the
    /// throttle of `username` and `address`; returns the record (or what `then` makes of the
    /// admitted work), or throws `refusal` for a wrong password or no record.
    private func checked<Result: Sendable>(
        _ password: String, of username: String, address: String?,
        find: (PasswordWork) async throws -> UserRecord?,
        refusal: () -> DomainError,
        then: (PasswordWork, UserRecord) async throws -> Result
    ) async throws -> Result {
        // A place among the bounded password checks first (503 at once when there is none), so
        // an attempt refused for capacity is never counted against the user by the throttle.
        try await hasher.admitted(.signIn) { work in
            // Counted before the password is checked, so attempts made at once cannot all pass the throttle.
            let attemptId: String
            switch try await throttle.reserve(username: username, address: address) {
            case .refused(let wait): throw DomainError.throttled(retryAfter: wait)
            case .allowed(let id): attemptId = id
            }
            let record = try await find(work)
            // No account costs a bcrypt check too, so timing does not tell which usernames exist.
            let matches = try await work.verify(password, hash: record?.passwordHash ?? hasher.decoyHash)
            // The reserved count stays when the check fails: it is this attempt's failure.
            guard let record, matches else { throw refusal() }
            try await throttle.recordSuccess(username: username, address: address, attemptId: attemptId)
            return try await then(work, record)
        }
    }

    private func checked(
        _ password: String, of username: String, address: String?,
        find: (PasswordWork) async throws -> UserRecord?,
        refusal: () -> DomainError
    ) async throws -> UserRecord {
        try await checked(password, of: username, address: address, find: find, refusal: refusal) { _, record in
            record
        }
    }
}
