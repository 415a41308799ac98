import BazaarAPI
import BazaarStorage
import Foundation

/// The rules of an account, written once for every storage engine: who may register with what.
///
/// A username is 3-32 characters of `a-z 0-9 _ .` and unique; a password 8-128 characters,
/// stored only as a bcrypt hash; a display name 1-64 characters.
public struct AccountService: Sendable {
    let store: any BazaarStore
    let hasher: PasswordHasher
    let clock: DomainClock

    /// A service writing to `store`, hashing with `hasher`, timing and naming with `clock`.
    package init(store: any BazaarStore, hasher: PasswordHasher, clock: DomainClock) {
        self.store = store
        self.hasher = hasher
        self.clock = clock
    }

    /// Creates an account and returns it.
    ///
    /// - Throws: ``DomainError/invalidField(_:_:)`` for a field out of its rule,
    ///   ``DomainError/conflict(code:message:)`` `username_taken` when the name is someone's,
    ///   ``DomainError/busy(_:retryAfter:)`` when the password checks are at their bound.
    public func register(username: String, password: String, displayName: String) async throws -> UserRecord {
        try Validation.username(username)
        try Validation.password(password)
        try Validation.displayName(displayName)
        let hash = try await hasher.admitted(.newAccount) { work in try await work.hash(password) }
        do {
            return try await store.createUser(
                NewUser(
                    id: clock.newId(), username: username, displayName: displayName, passwordHash: hash,
                    createdAt: clock.now()))
        } catch StoreError.conflict {
            throw DomainError.conflict(code: "username_taken", message: "That username is taken.")
        }
    }
}
