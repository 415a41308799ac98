import BazaarAPI
import Foundation
import Networking

/// What the profile screen shows.
public struct ProfileContent: Sendable, Equatable {
    /// The signed-in user.
    public var user: User
    /// Whether this is the cached user while a fresher one loads.
    public var isRefreshing: Bool

    /// Makes content.
    public init(user: User, isRefreshing: Bool = false) {
        self.user = user
        self.isRefreshing = isRefreshing
    }
}

/// The profile screen's states (seed 002's `ProfileState`).
public enum ProfileState: Sendable, Equatable {
    /// Nothing to show yet.
    case loading
    /// The user to draw.
    case presenting(ProfileContent)
    /// What went wrong and what to do next.
    case failed(ScreenError)
    /// The person logged out; the renderer leaves the screen.
    case signedOut
}

/// The profile screen's logic (seed 002's `ProfileLogicController`): every action returns the next state.
public protocol ProfileLogic: Sendable {
    /// Loads the profile: the cached user first (reported to `onState`), then the server's.
    func load(onState: StateHandler<ProfileState>?) async -> ProfileState
    /// Changes the display name.
    func changeDisplayName(to name: String) async -> ProfileState
    /// Uploads a new photo (JPEG, PNG or WebP bytes), reporting the share uploaded from 0 to 1.
    func changePhoto(_ bytes: Data, mediaType: MediaType, progress: (@Sendable (Double) -> Void)?) async -> ProfileState
    /// Logs out (also when the server cannot be reached).
    func logout() async -> ProfileState
}

extension ProfileLogic {
    /// The seed's form: `handler` gets the cached state, then the loaded one.
    @discardableResult
    public func load(then handler: @escaping StateHandler<ProfileState>) -> Task<Void, Never> {
        Task { handler(await load(onState: { if case .presenting(let content) = $0, content.isRefreshing { handler($0) } })) }
    }

    /// The seed's form of ``changeDisplayName(to:)``.
    @discardableResult
    public func changeDisplayName(to name: String, then handler: @escaping StateHandler<ProfileState>) -> Task<Void, Never> {
        Task { handler(await changeDisplayName(to: name)) }
    }

    /// The seed's form of ``logout()``.
    @discardableResult
    public func logout(then handler: @escaping StateHandler<ProfileState>) -> Task<Void, Never> {
        Task { handler(await logout()) }
    }
}

/// The profile screen as a module hands it out: its logic plus what a renderer needs to draw it.
public typealias ProfileScreen = Screen<any ProfileLogic>

/// The profile feature's public face; the app resolves it from ``Dependencies``.
public protocol ProfileModuleProtocol: Sendable {
    /// A new profile screen for the signed-in user.
    func profileScreen() -> ProfileScreen
}
