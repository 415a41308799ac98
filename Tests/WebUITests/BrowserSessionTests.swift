import BazaarAPI
import Dependencies
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import WebUI

/// `bazaar web`'s sessions over a real server on loopback. The accounts are fakes: they stand on the
/// far side of the boundary under test (the API server), and record what the app asked of them.
@Suite("Browser sessions in bazaar web")
struct BrowserSessionTests {
    @Test("a visitor's requests make no account and keep nothing, however many come without a cookie")
    func visitorsCostNothing() async throws {
        let (accounts, web) = try await servingWebApp { client, _ in
            var visitorIDs = Set<String>()
            for _ in 0..<200 {
                let response = try await client.execute(uri: "/signin", method: .get)
                #expect(response.status == .ok)
                let cookie = try #require(response.cookie(WebApp.visitorCookieName))
                visitorIDs.insert(cookie)
            }
            #expect(visitorIDs.count == 200)
        }
        #expect(accounts.made == 0)
        #expect(await web.signedInCount == 0)
    }

    @Test("a sign-in starts a new session id: neither the visitor's nor one planted in the browser")
    func signInRotatesTheSessionID() async throws {
        let (accounts, web) = try await servingWebApp { client, _ in
            let planted = BrowserSession.make().id
            let browser = Browser(client: client, cookies: ["\(WebApp.sessionCookieName)=\(planted)"])
            let form = try await browser.get("/signin")
            // The planted id is unknown here: the answer deletes it and treats the browser as a visitor.
            #expect(form.setCookies.contains(WebApp.expiring(WebApp.sessionCookieName)))
            let visitor = try #require(form.cookie(WebApp.visitorCookieName))
            browser.cookies = ["\(WebApp.sessionCookieName)=\(planted)", "\(WebApp.visitorCookieName)=\(visitor)"]

            let signedIn = try await browser.post(
                "/signin", form: "username=ada&password=right&csrf=\(try form.formToken())")
            #expect(signedIn.status == .seeOther)
            let session = try #require(signedIn.cookie(WebApp.sessionCookieName))
            #expect(session != planted && session != visitor)
            #expect(signedIn.setCookies.contains(WebApp.expiring(WebApp.visitorCookieName)))

            browser.cookies = ["\(WebApp.sessionCookieName)=\(planted)"]
            #expect(try await browser.get("/signin").text.contains("Profile (Ada)") == false)
            browser.cookies = ["\(WebApp.sessionCookieName)=\(session)"]
            #expect(try await browser.get("/signin").text.contains("Profile (Ada)"))
        }
        #expect(accounts.made == 1)
        #expect(await web.signedInCount == 1)
    }

    @Test("a sign-in post is refused without the visitor's own cookie and token (login CSRF)")
    func signInNeedsTheVisitorsOwnToken() async throws {
        let (accounts, _) = try await servingWebApp { client, _ in
            let attacker = Browser(client: client)
            let attackerForm = try await attacker.get("/signin")
            let stolenToken = try attackerForm.formToken()
            // No cookie at all: refused.
            let bare = try await Browser(client: client).post(
                "/signin", form: "username=ada&password=right&csrf=\(stolenToken)")
            #expect(bare.status == .forbidden)
            // The victim's own visitor cookie with the attacker's token: refused.
            let victim = Browser(client: client)
            let victimForm = try await victim.get("/signin")
            victim.cookies = [
                "\(WebApp.visitorCookieName)=\(try #require(victimForm.cookie(WebApp.visitorCookieName)))"
            ]
            let forged = try await victim.post("/signin", form: "username=ada&password=right&csrf=\(stolenToken)")
            #expect(forged.status == .forbidden)
            #expect(forged.cookie(WebApp.sessionCookieName) == nil)
        }
        #expect(accounts.made == 0)
    }

    @Test("a wrong password leaves no account behind")
    func failedSignInKeepsNothing() async throws {
        let (accounts, web) = try await servingWebApp { client, _ in
            let browser = Browser(client: client)
            let form = try await browser.visit("/signin")
            let refused = try await browser.post(
                "/signin", form: "username=ada&password=wrong&csrf=\(try form.formToken())")
            #expect(refused.status == .unauthorized)
            #expect(refused.cookie(WebApp.sessionCookieName) == nil)
        }
        #expect(accounts.made == 1)
        #expect(accounts.ended == 1)
        #expect(await web.signedInCount == 0)
    }

    @Test("signing out ends the account and deletes the cookie; signing in again ends the previous account")
    func signOutAndSignInAgain() async throws {
        let (accounts, web) = try await servingWebApp { client, accounts in
            let browser = Browser(client: client)
            try await browser.signIn()
            let first = try #require(browser.session)
            try await browser.signIn()
            #expect(browser.session != first)
            #expect(accounts.ended == 1)
            let page = try await browser.get("/signin")
            let out = try await browser.post("/signout", form: "csrf=\(try page.formToken())")
            #expect(out.status == .seeOther)
            #expect(out.setCookies.contains(WebApp.expiring(WebApp.sessionCookieName)))
        }
        #expect(accounts.made == 2)
        #expect(accounts.ended == 2)
        #expect(await web.signedInCount == 0)
    }

    @Test("past the limit, the browser unused longest is signed out")
    func boundedRegistry() async throws {
        let clock = ManualClock()
        let (_, web) = try await servingWebApp(limits: SessionLimits(maximumSignedIn: 2), clock: clock) {
            client, accounts in
            let browsers = (0..<3).map { _ in Browser(client: client) }
            for browser in browsers {
                try await browser.signIn()
                clock.advance(by: .seconds(1))
            }
            await accounts.waitForEnded(1)
            #expect(try await browsers[0].get("/signin").text.contains("Profile (Ada)") == false)
            #expect(try await browsers[2].get("/signin").text.contains("Profile (Ada)"))
        }
        #expect(await web.signedInCount == 2)
    }

    @Test("a browser unused for the idle timeout is signed out by the next request")
    func idleSessionsEnd() async throws {
        let clock = ManualClock()
        let (_, web) = try await servingWebApp(limits: SessionLimits(idleTimeout: .seconds(3600)), clock: clock) {
            client, accounts in
            let idle = Browser(client: client)
            let active = Browser(client: client)
            try await idle.signIn()
            try await active.signIn()
            clock.advance(by: .seconds(1800))
            #expect(try await active.get("/signin").text.contains("Profile (Ada)"))
            clock.advance(by: .seconds(1900))
            #expect(try await active.get("/signin").text.contains("Profile (Ada)"))
            await accounts.waitForEnded(1)
            #expect(try await idle.get("/signin").text.contains("Profile (Ada)") == false)
        }
        #expect(await web.signedInCount == 1)
    }

    @Test("requests for a host name the app was not given are refused before any session (DNS rebinding)")
    func foreignHostsAreRefused() async throws {
        try await servingWebApp(hostNames: HostNames(["bazaar.example.org"])) { client, _ in
            let port = try #require(client.port)
            let raw = TestClient(
                host: "127.0.0.1", port: port, configuration: .init(),
                eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton))
            raw.connect()
            defer { Task { try? await raw.shutdown() } }
            for (authority, allowed) in [
                ("rebound.attacker.example:\(port)", false), ("127.0.0.1.attacker.example", false),
                ("127.0.0.1:\(port)", true), ("localhost:\(port)", true), ("[::1]:\(port)", true),
                ("BAZAAR.example.org", true),
            ] {
                let response = try await raw.execute(TestClient.Request("/signin", method: .get, authority: authority))
                #expect(response.head.status == (allowed ? .ok : .forbidden), "\(authority)")
                #expect((response.head.headerFields[.setCookie] != nil) == allowed, "\(authority)")
            }
        }
    }

    @Test("host names: the port and IPv6 brackets are not part of the name; junk is not a name")
    func hostNameParsing() {
        #expect(HostNames.host(of: "[::1]:8080") == "::1")
        #expect(HostNames.host(of: "example.org:80") == "example.org")
        #expect(HostNames.host(of: "example.org") == "example.org")
        #expect(HostNames.host(of: "[::1]x") == nil)
        #expect(HostNames.host(of: "a:b:c") == nil)
        #expect(HostNames().accepts(authority: nil) == false)
        #expect(HostNames.isValid("bazaar.example.org"))
        #expect(!HostNames.isValid("http://bazaar.example.org"))
        #expect(!HostNames.isValid("bazaar.example.org/x"))
        #expect(!HostNames.isValid(""))
    }
}

// MARK: - Helpers

/// Serves a ``WebApp`` over fake accounts on loopback for the duration of `body`; answers the
/// accounts and the app, for what they recorded.
@discardableResult
private func servingWebApp(
    hostNames: HostNames = HostNames(), limits: SessionLimits = SessionLimits(), clock: ManualClock = ManualClock(),
    _ body: @escaping @Sendable (any TestClientProtocol, FakeAccounts) async throws -> Void
) async throws -> (FakeAccounts, WebApp) {
    let accounts = FakeAccounts()
    let web = try WebApp(
        factory: accounts, serverURL: URL(string: "http://127.0.0.1:1")!, hostNames: hostNames, limits: limits,
        clock: clock)
    try await Application(router: web.router()).test(.live) { client in try await body(client, accounts) }
    return (accounts, web)
}

/// A browser's cookie jar over the test client.
private final class Browser: Sendable {
    let client: any TestClientProtocol
    private let jar: Mutex<[String]>

    init(client: any TestClientProtocol, cookies: [String] = []) {
        self.client = client
        jar = Mutex(cookies)
    }

    var cookies: [String] {
        get { jar.withLock { $0 } }
        set { jar.withLock { $0 = newValue } }
    }

    /// The signed-in session's id, if the jar holds one.
    var session: String? {
        cookies.first { $0.hasPrefix(WebApp.sessionCookieName + "=") }.map {
            String($0.dropFirst(WebApp.sessionCookieName.count + 1))
        }
    }

    func get(_ path: String) async throws -> Page {
        Page(try await client.execute(uri: path, method: .get, headers: headers()))
    }

    /// GETs `path` and keeps the cookies the answer sets (as a browser does).
    func visit(_ path: String) async throws -> Page {
        let page = try await get(path)
        keep(page)
        return page
    }

    func post(_ path: String, form: String) async throws -> Page {
        var fields = headers()
        fields[.contentType] = "application/x-www-form-urlencoded"
        return Page(
            try await client.execute(uri: path, method: .post, headers: fields, body: ByteBuffer(string: form)))
    }

    /// Signs in as Ada the way a browser does, keeping the new session cookie.
    func signIn() async throws {
        let form = try await visit("/signin")
        let answer = try await post("/signin", form: "username=ada&password=right&csrf=\(try form.formToken())")
        try #require(answer.status == .seeOther)
        keep(answer)
    }

    private func keep(_ page: Page) {
        for set in page.setCookies {
            let pair = set.split(separator: ";")[0]
            let name = String(pair.split(separator: "=", maxSplits: 1)[0])
            cookies.removeAll { $0.hasPrefix(name + "=") }
            if !set.contains("Max-Age=0") { cookies.append(String(pair)) }
        }
    }

    private func headers() -> HTTPFields {
        var fields = HTTPFields()
        if !cookies.isEmpty { fields[.cookie] = cookies.joined(separator: "; ") }
        return fields
    }
}

/// One answer, read.
private struct Page {
    let status: HTTPResponse.Status
    let setCookies: [String]
    let text: String

    init(_ response: TestResponse) {
        status = response.status
        setCookies = response.headers[values: .setCookie]
        text = String(buffer: response.body)
    }

    func cookie(_ name: String) -> String? {
        setCookies.lazy.compactMap { set -> String? in
            let pair = set.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0] == name else { return nil }
            return String(pair[1])
        }.first
    }

    /// The form token in the page.
    func formToken() throws -> String {
        let marker = "name=\"csrf\" value=\""
        let start = try #require(text.range(of: marker)).upperBound
        let end = try #require(text[start...].firstIndex(of: "\""))
        return String(text[start..<end])
    }
}

extension TestResponse {
    fileprivate func cookie(_ name: String) -> String? { Page(self).cookie(name) }
}

/// Accounts that sign Ada in with the password "right" and record what happened to them.
private final class FakeAccounts: BrowserAccountFactory {
    private let counts = Mutex((made: 0, ended: 0, waiters: [(Int, CheckedContinuation<Void, Never>)]()))

    var made: Int { counts.withLock { $0.made } }
    var ended: Int { counts.withLock { $0.ended } }

    func visitorDependencies() async throws -> Dependencies {
        Dependencies(container: DependencyContainer())
    }

    func newAccount() async throws -> any BrowserAccount {
        counts.withLock { $0.made += 1 }
        return FakeAccount(onEnd: { [weak self] in self?.recordEnd() })
    }

    /// Returns once `count` accounts have ended.
    func waitForEnded(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = counts.withLock { state -> Bool in
                if state.ended >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func recordEnd() {
        let ready = counts.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.ended += 1
            let ended = state.ended
            let ready = state.waiters.filter { $0.0 <= ended }.map(\.1)
            state.waiters.removeAll { $0.0 <= ended }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}

private actor FakeAccount: BrowserAccount {
    private var user: User?
    private let onEnd: @Sendable () -> Void

    init(onEnd: @escaping @Sendable () -> Void) {
        self.onEnd = onEnd
    }

    func dependencies() -> Dependencies { Dependencies(container: DependencyContainer()) }
    func signedInUser() -> User? { user }

    func signIn(username: String, password: String) -> ScreenError? {
        guard password == "right" else { return ScreenError(kind: .signedOut, message: "Wrong username or password.") }
        user = User(id: "u1", username: username, displayName: "Ada", bio: nil, photoURL: nil, createdAt: Date())
        return nil
    }

    func register(username: String, displayName: String, password: String) -> ScreenError? {
        signIn(username: username, password: password)
    }

    @discardableResult
    func end() -> ScreenError? {
        user = nil
        onEnd()
        return nil
    }
}

/// A clock the test moves by hand.
private final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = Mutex(Instant(offset: .zero))
    var now: Instant { current.withLock { $0 } }
    var minimumResolution: Duration { .nanoseconds(1) }

    func advance(by duration: Duration) {
        current.withLock { $0 = $0.advanced(by: duration) }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        throw CancellationError()
    }
}
