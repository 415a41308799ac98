import Foundation

/// A browser's session with `bazaar web`: an opaque id (the cookie) and the token every form must
/// carry back (CSRF). Both are 256-bit random values, URL-safe.
public struct BrowserSession: Sendable, Equatable {
    /// The cookie value.
    public let id: String
    /// The anti-forgery token forms carry.
    public let csrfToken: String

    /// A new session with fresh random values.
    public static func make() -> BrowserSession {
        BrowserSession(id: randomToken(), csrfToken: randomToken())
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// The browser sessions `bazaar web` knows, by cookie; each keeps its account.
actor BrowserSessions {
    private struct Entry {
        var session: BrowserSession
        var account: any BrowserAccount
    }

    private let factory: any BrowserAccountFactory
    private var entries: [String: Entry] = [:]

    init(factory: any BrowserAccountFactory) {
        self.factory = factory
    }

    /// The session for `cookie`, or a new one when the cookie is missing or unknown.
    func session(forCookie cookie: String?) async throws -> (BrowserSession, any BrowserAccount, isNew: Bool) {
        if let cookie, let entry = entries[cookie] { return (entry.session, entry.account, false) }
        let session = BrowserSession.make()
        let account = try await factory.account(forBrowser: session.id)
        entries[session.id] = Entry(session: session, account: account)
        return (session, account, true)
    }
}
