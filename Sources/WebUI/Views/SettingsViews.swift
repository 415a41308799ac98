import BazaarAPI
import Dependencies
import Foundation

/// The account settings page: sessions with their sign-out buttons, the password form, the people
/// blocked, the export link and the deletion form.
struct AccountSettingsView: Sendable {
    struct SessionItem: Sendable {
        var id: String
        var label: String
        var signedIn: String
        var lastUsed: String
        var isoLastUsed: String
        var current: Bool
    }

    struct Blocked: Sendable {
        var id: String
        var name: String
    }

    var title = "Your account"
    var nav: NavigationView
    var notice: String?
    var sessions: [SessionItem]
    var hasOthers: Bool
    var blocked: [Blocked]
    var currentPasswordError: String?
    var newPasswordError: String?
    var deletePasswordError: String?

    init(content: AccountContent, nav: NavigationView) {
        self.nav = nav
        notice = content.notice?.sentence
        sessions = content.sessions.map { session in
            SessionItem(
                id: session.id, label: AccountContent.label(of: session), signedIn: WebFormats.time(session.createdAt),
                lastUsed: WebFormats.time(session.lastUsedAt), isoLastUsed: WebFormats.iso(session.lastUsedAt),
                current: session.current)
        }
        hasOthers = content.sessions.contains { !$0.current }
        blocked = content.blocked.map { Blocked(id: $0.id, name: "\($0.displayName) (@\($0.username))") }
        currentPasswordError = content.fieldErrors[.currentPassword]
        newPasswordError = content.fieldErrors[.newPassword]
        deletePasswordError = content.fieldErrors[.deletePassword]
    }
}

/// The page after an account is deleted.
struct AccountDeletedView: Sendable {
    var title = "Account deleted"
    var nav: NavigationView
}
