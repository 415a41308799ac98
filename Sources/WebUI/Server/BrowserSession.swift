import Crypto
import Foundation

/// A browser's session with `bazaar web`: an opaque id (the cookie) and the token every form must
/// carry back (CSRF). Both are 256-bit random values, URL-safe.
///
/// A visitor who has not signed in has a session too, but the server keeps nothing for it: its id
/// is a random cookie and its form token is an HMAC of that id under a key of this process
/// (a signed double-submit cookie), so any number of cookieless requests cost no memory and no
/// files, and a forged sign-in (login CSRF) still needs the visitor's own cookie.
public struct BrowserSession: Sendable, Equatable {
    /// The cookie value.
    public let id: String
    /// The anti-forgery token forms carry.
    public let csrfToken: String

    /// A new session with fresh random values.
    public static func make() -> BrowserSession {
        BrowserSession(id: randomToken(), csrfToken: randomToken())
    }

    /// The visitor session of cookie `id`: its form token is derived from `id` under `key`, so
    /// nothing needs to be stored.
    static func visitor(id: String, key: SymmetricKey) -> BrowserSession {
        let code = HMAC<SHA256>.authenticationCode(for: Data(("visitor:" + id).utf8), using: key)
        return BrowserSession(id: id, csrfToken: urlSafe(Data(code)))
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return urlSafe(Data(bytes))
    }

    /// Whether `text` could be a token this type makes (43 URL-safe base64 characters): anything
    /// else in a cookie is dropped before it is looked up or signed.
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 43
            && text.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                    || $0 == 0x2D || $0 == 0x5F
            }
    }

    private static func urlSafe(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension BrowserSession {
    /// Whether `token` is this session's form token, compared in time that does not depend on
    /// where the first difference is.
    func accepts(formToken token: String?) -> Bool {
        guard let token else { return false }
        let expected = Array(csrfToken.utf8)
        let given = Array(token.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
