import BazaarAPI
import Networking

extension AuthTokens {
    /// The kit's tokens from the tokens Bazaar's API sends.
    public init(_ tokens: Tokens) {
        self.init(
            accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: tokens.expiresAt,
            tokenType: tokens.tokenType)
    }
}
