import Crypto
import Dependencies
import Foundation

/// How many browsers `bazaar web` keeps signed in, and for how long unused.
public struct SessionLimits: Sendable, Equatable {
    /// The most signed-in browsers at once; a sign-in past it signs out the one unused longest.
    public var maximumSignedIn: Int
    /// A browser unused this long is signed out and its files removed.
    public var idleTimeout: Duration

    /// Limits of `maximumSignedIn` browsers, each signed out after `idleTimeout` unused.
    public init(maximumSignedIn: Int = 1000, idleTimeout: Duration = .seconds(12 * 3600)) {
        self.maximumSignedIn = maximumSignedIn
        self.idleTimeout = idleTimeout
    }
}

/// The signed-in browsers of `bazaar web`, by session id, and the one stack every visitor shares.
///
/// Nothing is kept for a visitor: a browser gets an account (files, tokens, an outbox) only when a
/// sign-in or registration succeeds, and then under a new session id, so an id a browser held
/// before (or one planted in it) never becomes a signed-in session. The registry is bounded: past
/// ``SessionLimits/maximumSignedIn`` the browser unused longest is signed out, and one unused for
/// ``SessionLimits/idleTimeout`` is signed out by the next request that looks.
actor BrowserSessions {
    /// What one request meets: a signed-in browser, or a visitor.
    struct Visit: Sendable {
        /// The session: a signed-in browser's, or the visitor's (derived, not stored).
        var session: BrowserSession
        /// The signed-in account, or `nil` for a visitor.
        var account: (any BrowserAccount)?
        /// The modules to serve the request with.
        var dependencies: Dependencies
        /// Whether the visitor cookie was made for this request (the browser sent none, so a post
        /// cannot carry a form token for it).
        var isNewVisitor: Bool
        /// Whether the browser sent a session cookie this process does not know (from an earlier
        /// run, or ended): the answer should delete it.
        var sentUnknownSession: Bool
    }

    private struct Entry {
        var session: BrowserSession
        var account: any BrowserAccount
        var lastUsed: Duration
    }

    /// How often idle sessions are looked for.
    private static let sweepInterval = Duration.seconds(60)

    private let factory: any BrowserAccountFactory
    private let limits: SessionLimits
    private let visitorKey = SymmetricKey(size: .bits256)
    private let uptime: @Sendable () -> Duration
    private var visitor: Dependencies?
    private var signedIn: [String: Entry] = [:]
    private var lastSweep = Duration.zero

    /// Sessions over `factory`, timed by `clock`.
    init<C: Clock<Duration>>(factory: any BrowserAccountFactory, limits: SessionLimits, clock: C) {
        self.factory = factory
        self.limits = limits
        let start = clock.now
        uptime = { start.duration(to: clock.now) }
    }

    /// How many browsers are signed in.
    var signedInCount: Int { signedIn.count }

    /// The visit of a request carrying `sessionCookie` and `visitorCookie` (either may be missing).
    func visit(sessionCookie: String?, visitorCookie: String?) async throws -> Visit {
        let now = uptime()
        endIdle(now: now)
        if let sessionCookie, var entry = signedIn[sessionCookie] {
            entry.lastUsed = now
            signedIn[sessionCookie] = entry
            return Visit(
                session: entry.session, account: entry.account, dependencies: await entry.account.dependencies(),
                isNewVisitor: false, sentUnknownSession: false)
        }
        let dependencies = try await visitorDependencies()
        let known = visitorCookie.flatMap { BrowserSession.isWellFormed($0) ? $0 : nil }
        return Visit(
            session: .visitor(id: known ?? BrowserSession.randomToken(), key: visitorKey), account: nil,
            dependencies: dependencies, isNewVisitor: known == nil, sentUnknownSession: sessionCookie != nil)
    }

    /// Makes a new account, runs `attempt` (a sign-in or a registration) on it and, when that
    /// succeeds, keeps it under a new session id, ending the browser's signed-in session
    /// `replacing` if it had one. A failed attempt leaves nothing behind.
    func start(
        replacing current: String?, _ attempt: @Sendable (any BrowserAccount) async -> ScreenError?
    ) async -> Result<BrowserSession, ScreenError> {
        let account: any BrowserAccount
        do {
            account = try await factory.newAccount()
        } catch {
            return .failure(ScreenError(kind: .other, message: "The app could not be set up for you: \(error)"))
        }
        if let error = await attempt(account) {
            await account.end()
            return .failure(error)
        }
        if let current, let replaced = signedIn.removeValue(forKey: current) { await replaced.account.end() }
        makeRoom()
        let session = BrowserSession.make()
        signedIn[session.id] = Entry(session: session, account: account, lastUsed: uptime())
        return .success(session)
    }

    /// Signs out the browser of session `id` and forgets it; the error says what went wrong, if anything.
    func end(_ id: String) async -> ScreenError? {
        guard let entry = signedIn.removeValue(forKey: id) else { return nil }
        return await entry.account.end()
    }

    /// Signs out every browser (when the app stops, so no token outlives the run).
    func endAll() async {
        let entries = signedIn.values
        signedIn = [:]
        await withTaskGroup(of: Void.self) { group in
            for entry in entries { group.addTask { await entry.account.end() } }
        }
    }

    private func visitorDependencies() async throws -> Dependencies {
        if let visitor { return visitor }
        let made = try await factory.visitorDependencies()
        // Another request may have made it while this one waited: keep the first.
        if let visitor { return visitor }
        visitor = made
        return made
    }

    /// Ends the browser unused longest while the registry is full.
    private func makeRoom() {
        while signedIn.count >= max(limits.maximumSignedIn, 1),
            let oldest = signedIn.min(by: { $0.value.lastUsed < $1.value.lastUsed })
        {
            signedIn[oldest.key] = nil
            Task { await oldest.value.account.end() }
        }
    }

    /// Ends the browsers unused for the idle timeout, looking at most once a sweep interval.
    private func endIdle(now: Duration) {
        guard now - lastSweep >= Self.sweepInterval else { return }
        lastSweep = now
        let idle = signedIn.filter { now - $0.value.lastUsed >= limits.idleTimeout }
        guard !idle.isEmpty else { return }
        for id in idle.keys { signedIn[id] = nil }
        Task {
            for entry in idle.values { await entry.account.end() }
        }
    }
}
