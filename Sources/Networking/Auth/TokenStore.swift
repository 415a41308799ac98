/// Keeps a session's tokens between launches. Implementations must never log the tokens.
///
/// `Session` provides a file-backed store; ``InMemoryTokenStore`` suits tests and short-lived tools.
public protocol TokenStore: Sendable {
    /// The stored tokens, or `nil` when signed out.
    func load() async throws -> AuthTokens?
    /// Replaces the stored tokens.
    func save(_ tokens: AuthTokens) async throws
    /// Forgets the tokens (sign-out, or the session ended).
    func clear() async throws
}

/// Keeps tokens in memory only.
public actor InMemoryTokenStore: TokenStore {
    private var tokens: AuthTokens?

    /// Makes a store, optionally holding tokens already.
    public init(_ tokens: AuthTokens? = nil) {
        self.tokens = tokens
    }

    /// The tokens held, if any.
    public func load() -> AuthTokens? { tokens }
    /// Holds `tokens`.
    public func save(_ tokens: AuthTokens) { self.tokens = tokens }
    /// Forgets the tokens.
    public func clear() { tokens = nil }
}
