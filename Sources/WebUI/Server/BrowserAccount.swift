import BazaarAPI
import Dependencies

/// One browser's client stack, as the composition root builds it: its own session, token storage,
/// HTTP cache and outbox, and its own ``Dependencies`` with the feature modules for whoever is
/// signed in. Tokens stay inside it; the browser only ever holds an opaque cookie.
public protocol BrowserAccount: Sendable {
    /// The feature modules for this browser (products only, while nobody is signed in).
    func dependencies() async -> Dependencies
    /// Who is signed in on this browser, if anyone.
    func signedInUser() async -> User?
    /// Signs in; the error says why not.
    func signIn(username: String, password: String) async -> ScreenError?
    /// Creates an account and signs in; the error says why not.
    func register(username: String, displayName: String, password: String) async -> ScreenError?
    /// Signs out (revoking the session when the server can be reached). The browser is signed out
    /// either way; the error says what went wrong setting up the signed-out app, if anything did.
    func signOut() async -> ScreenError?
}

/// Makes (or finds again) the account for a browser session id.
public protocol BrowserAccountFactory: Sendable {
    /// The account for browser session `id`, created on first use.
    func account(forBrowser id: String) async throws -> any BrowserAccount
}
