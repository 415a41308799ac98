import BazaarAPI
import Networking

/// Holds the signed-in user, never optional (seed 001/003's `UserManager` turned
/// `UserModelController`): a value of this type exists only while someone is signed in.
public actor UserModelController {
    /// The user as last known.
    public private(set) var user: User
    private let loader: UserLoader

    /// Makes a controller for a user already loaded.
    public init(user: User, loader: UserLoader) {
        self.user = user
        self.loader = loader
    }

    /// Reloads the user from the server and keeps the result.
    @discardableResult
    public func sync() async throws(NetworkError) -> User {
        let fresh = try await loader.loadCurrentUser()
        user = fresh
        return fresh
    }

    /// Completion-handler form of ``sync()`` (the seed's `sync(then:)`).
    @discardableResult
    public nonisolated func sync(then handler: @escaping NetworkResultHandler<User>) -> Task<Void, Never> {
        Task {
            do throws(NetworkError) {
                handler(.success(try await sync()))
            } catch {
                handler(.failure(error))
            }
        }
    }

    /// Renames the user on the server and keeps the answer locally at once.
    @discardableResult
    public func rename(to displayName: String) async throws(NetworkError) -> User {
        try await update(UpdateProfileRequest(displayName: displayName))
    }

    /// Applies a profile change on the server and keeps the answer locally.
    @discardableResult
    public func update(_ change: UpdateProfileRequest) async throws(NetworkError) -> User {
        let updated = try await loader.update(change)
        user = updated
        return updated
    }

    /// Replaces the local user with one the server returned elsewhere (after a photo upload, say).
    public func apply(_ updated: User) {
        guard updated.id == user.id else { return }
        user = updated
    }
}
