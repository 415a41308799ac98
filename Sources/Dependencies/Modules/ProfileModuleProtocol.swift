import BazaarAPI
import Foundation
import Networking

/// What the profile screen shows.
public struct ProfileContent: Sendable, Equatable {
    /// The signed-in user.
    public var user: User
    /// Whether this is the cached user while a fresher one loads.
    public var isRefreshing: Bool
    /// The share of a photo upload sent so far (0 to 1), while one is under way.
    public var uploadProgress: Double?

    /// Makes content.
    public init(user: User, isRefreshing: Bool = false, uploadProgress: Double? = nil) {
        self.user = user
        self.isRefreshing = isRefreshing
        self.uploadProgress = uploadProgress
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

    /// The content, when presenting.
    public var content: ProfileContent? {
        if case .presenting(let content) = self { content } else { nil }
    }
}

/// What the person can do on the profile screen.
public enum ProfileAction: Sendable, Equatable {
    /// Shows the cached user at once, then the server's.
    case load
    /// Changes the display name.
    case changeDisplayName(String)
    /// Uploads a new photo (JPEG, PNG or WebP bytes); progress shows in the states.
    case changePhoto(Data, MediaType)
    /// Logs out (also when the server cannot be reached).
    case logout
}

/// The profile screen's logic (seed 002's `ProfileLogicController`).
public protocol ProfileLogic: LogicController where Action == ProfileAction, State == ProfileState {}

/// The profile screen as a module hands it out: its logic plus what a renderer needs to draw it.
public typealias ProfileScreen = Screen<any ProfileLogic>

/// The profile feature's public face; the app resolves it from ``Dependencies``.
public protocol ProfileModuleProtocol: Sendable {
    /// A new profile screen for the signed-in user.
    func profileScreen() -> ProfileScreen
}
