import BazaarAPI
import Foundation

/// A field of the account screen's forms, for an error shown beside it.
public enum AccountField: String, Sendable, Equatable, Hashable, CaseIterable {
    /// The password now, to change it.
    case currentPassword
    /// The new password.
    case newPassword
    /// The password, asked again to delete the account.
    case deletePassword
}

/// What just happened on the account screen, for a renderer to confirm in words.
public enum AccountNotice: Sendable, Equatable {
    /// The password changed; every other session was signed out.
    case passwordChanged
    /// One session was signed out.
    case sessionEnded
    /// Every session but this one was signed out.
    case otherSessionsEnded
    /// The person is blocked now.
    case blocked(User)
    /// The person is not blocked any more.
    case unblocked(User)

    /// The notice as a sentence.
    public var sentence: String {
        switch self {
        case .passwordChanged: "Password changed. Every other session is signed out."
        case .sessionEnded: "That session is signed out."
        case .otherSessionsEnded: "Every other session is signed out."
        case .blocked(let user): "You blocked \(user.displayName)."
        case .unblocked(let user): "You unblocked \(user.displayName)."
        }
    }
}

/// What the account screen shows: where the account is signed in, whom it blocked, what just
/// happened, and the errors of its forms; or that the account is gone.
public struct AccountContent: Sendable, Equatable {
    /// The sessions signed in, newest first (the current one marked).
    public var sessions: [AccountSession]
    /// The people blocked, most recently blocked first.
    public var blocked: [User]
    /// What the last action did, to confirm.
    public var notice: AccountNotice?
    /// A sentence beside each field whose value was refused.
    public var fieldErrors: [AccountField: String]
    /// Whether the account was deleted (the app then forgets the session).
    public var deleted: Bool

    /// Makes content.
    public init(
        sessions: [AccountSession] = [], blocked: [User] = [], notice: AccountNotice? = nil,
        fieldErrors: [AccountField: String] = [:], deleted: Bool = false
    ) {
        self.sessions = sessions
        self.blocked = blocked
        self.notice = notice
        self.fieldErrors = fieldErrors
        self.deleted = deleted
    }

    /// How a session is named on screen: its user agent (or "Unknown device"), and "this
    /// device" for the current one.
    public static func label(of session: AccountSession) -> String {
        let device = session.userAgent ?? "Unknown device"
        return session.current ? "\(device) (this device)" : device
    }
}

/// What the signed-in person can do with their own account.
public enum AccountAction: Sendable, Equatable {
    /// Loads the sessions and the people blocked.
    case load
    /// Changes the password from `current` to `new`.
    case changePassword(current: String, new: String)
    /// Signs one session out.
    case endSession(id: String)
    /// Signs out every session but this one.
    case endOtherSessions
    /// Blocks the person with this id.
    case block(userID: String)
    /// Stops blocking the person with this id.
    case unblock(userID: String)
    /// Deletes the account, with its password asked again.
    case delete(password: String)
}

/// The account: password, sessions, blocks and deletion.
public protocol AccountLogic: LogicController where Action == AccountAction, State == ScreenState<AccountContent> {}

/// The account as a screen.
public typealias AccountScreen = Screen<any AccountLogic>

/// The account feature's public face; the app resolves it from ``Dependencies``.
public protocol AccountModuleProtocol: Sendable {
    /// The signed-in person's account.
    func accountScreen() -> AccountScreen
    /// Everything of the signed-in person's, as the bytes of a ZIP archive (GDPR's copy).
    func exportArchive() async throws(ScreenError) -> Data
}
