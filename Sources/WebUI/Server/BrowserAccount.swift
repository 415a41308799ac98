import BazaarAPI
import Dependencies

/// One signed-in browser's client stack, as the composition root builds it: its own session, token
/// storage, HTTP cache and outbox, and its own ``Dependencies`` with the feature modules for whoever
/// is signed in. Tokens stay inside it; the browser only ever holds an opaque cookie.
///
/// An account is made for one sign-in and lives until ``end()``: signing in again, or as someone
/// else, makes a new account (and a new session id), never reuses one.
public protocol BrowserAccount: Sendable {
    /// The feature modules for this browser.
    func dependencies() async -> Dependencies
    /// Who is signed in on this account, if anyone (nobody before a sign-in succeeds, or after the
    /// server ended the session).
    func signedInUser() async -> User?
    /// Signs in; the error says why not.
    func signIn(username: String, password: String) async -> ScreenError?
    /// Creates an account and signs in; the error says why not.
    func register(username: String, displayName: String, password: String) async -> ScreenError?
    /// Ends the account: stops its background work, signs out (revoking the session when the server
    /// can be reached) and removes its files. Messages still queued are kept for the user's next
    /// sign-in. The error says what could not be done; the account is ended either way.
    @discardableResult
    func end() async -> ScreenError?
}

/// Makes the accounts of `bazaar web`.
public protocol BrowserAccountFactory: Sendable {
    /// The modules every visitor who is not signed in shares: public pages only, nobody's data,
    /// the same instance for every visitor.
    func visitorDependencies() async throws -> Dependencies
    /// A new account, not signed in yet, with files of its own, for a browser about to sign in
    /// or register.
    func newAccount() async throws -> any BrowserAccount
}
