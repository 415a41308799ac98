import Foundation
import Networking
import NetworkingAsyncHTTPClient
import TestSupport
import Testing

/// Custom roots and public-key pins on the AsyncHTTPClient transport, against the kit's test
/// server behind a real TLS terminator whose certificates each test makes; and URLSession's refusal.
@Suite("Server trust: roots and pins")
struct ServerTrustTests {
    /// The pin of `pem`'s key as the article's `openssl` line prints it: the pins here are
    /// computed by another program than the one that checks them.
    static func pin(of pem: String) async throws -> PublicKeyPin {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pin-\(UUID().uuidString).pem")
        try pem.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let printed = try await shell(
            "openssl x509 -in '\(file.path)' -pubkey -noout | openssl pkey -pubin -outform der"
                + " | openssl dgst -sha256 -binary | base64")
        return try PublicKeyPin(
            base64: String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Runs `body` with the kit's test server behind TLS presenting `certificates`' server
    /// certificate; the body gets the `https://localhost:PORT` base URL.
    static func behindTLS(
        _ certificates: TestCertificates, _ body: @escaping @Sendable (KitFixture, URL) async throws -> Void
    ) async throws {
        try await KitFixture.with { fixture in
            let backendPort = try #require(fixture.baseURL.port)
            try await TLSProxy.run(forwardingTo: backendPort, certificates: certificates) { port in
                try await body(fixture, try #require(URL(string: "https://localhost:\(port)")))
            }
        }
    }

    /// A GET of `/echo` at `base` over `transport`.
    static func echo(_ base: URL, _ transport: AsyncHTTPClientTransport) async throws(NetworkError) -> Echo {
        let client = APIClient(
            baseURL: base, performer: NetworkRequestPerformer(transport: transport, timeout: .seconds(20)))
        return try await client.send(Get<Echo>(path: "/echo"))
    }

    @Test("the right pin and the test's own root: requests go through, keep-alive included, with the origin's Host")
    func rightPinConnects() async throws {
        let certificates = try TestCertificates()
        let trust = try ServerTrust(
            rootCertificatesPEM: certificates.authorityPEM,
            publicKeyPins: [try await Self.pin(of: certificates.serverPEM)])
        let transport = try AsyncHTTPClientTransport(trust: trust)
        try await Self.behindTLS(certificates) { _, base in
            for _ in 0..<3 {
                let echo = try await Self.echo(base, transport)
                #expect(echo.path == "/echo")
                #expect(echo.authority == "localhost:\(base.port ?? 0)")
            }
        }
    }

    @Test("a wrong pin refuses the server, naming the key it presented, and nothing reaches the server")
    func wrongPinIsRefused() async throws {
        let certificates = try TestCertificates()
        let other = try TestCertificates()
        let presented = try await Self.pin(of: certificates.serverPEM)
        let trust = try ServerTrust(
            rootCertificatesPEM: certificates.authorityPEM, publicKeyPins: [try await Self.pin(of: other.serverPEM)])
        let transport = try AsyncHTTPClientTransport(trust: trust)
        try await Self.behindTLS(certificates) { fixture, base in
            let error = await #expect(throws: NetworkError.self) { try await Self.echo(base, transport) }
            guard case .untrustedServer(let reason) = error else {
                Issue.record("expected untrustedServer, got \(String(describing: error))")
                return
            }
            #expect(reason.contains(presented.description))
            #expect(reason.contains("matches none of the 1 pinned keys"))
            #expect(fixture.hits.count("echo") == 0)
            #expect(error?.isRetryable == false)
        }
    }

    @Test("a server that rotated to its backup key still connects when the backup was pinned beside the old one")
    func rotatedKeyMatchesTheBackupPin() async throws {
        let before = try TestCertificates()
        let after = try before.reissued()
        // The system's roots stay (`replacesSystemRoots: false`); the test authority joins them.
        let trust = try ServerTrust(
            rootCertificatesPEM: before.authorityPEM, replacesSystemRoots: false,
            publicKeyPins: [try await Self.pin(of: before.serverPEM), try await Self.pin(of: after.serverPEM)])
        #expect(try await Self.pin(of: before.serverPEM) != Self.pin(of: after.serverPEM))
        let transport = try AsyncHTTPClientTransport(trust: trust)
        for certificates in [before, after] {
            try await Self.behindTLS(certificates) { _, base in
                let echo = try await Self.echo(base, transport)
                #expect(echo.path == "/echo")
            }
        }
        // And a transport that pinned only the old key refuses the rotated server.
        let stale = try AsyncHTTPClientTransport(
            trust: ServerTrust(
                rootCertificatesPEM: after.authorityPEM, publicKeyPins: [try await Self.pin(of: before.serverPEM)]))
        try await Self.behindTLS(after) { _, base in
            await #expect(throws: NetworkError.self) { try await Self.echo(base, stale) }
        }
    }

    @Test(
        "the usual verification still runs first: an unknown authority and a name the certificate does not hold are refused"
    )
    func verificationStillRuns() async throws {
        let certificates = try TestCertificates()
        let stranger = try TestCertificates()
        let pin = try await Self.pin(of: certificates.serverPEM)
        // The right pin, but the root of another authority: the chain does not verify.
        let otherRoot = try AsyncHTTPClientTransport(
            trust: ServerTrust(rootCertificatesPEM: stranger.authorityPEM, publicKeyPins: [pin]))
        // The right root and pin, but an address the certificate (for localhost) does not name.
        let rightRoot = try AsyncHTTPClientTransport(
            trust: ServerTrust(rootCertificatesPEM: certificates.authorityPEM, publicKeyPins: [pin]))
        try await Self.behindTLS(certificates) { _, base in
            let unknown = await #expect(throws: NetworkError.self) { try await Self.echo(base, otherRoot) }
            guard case .untrustedServer(let reason) = unknown else {
                Issue.record("expected untrustedServer, got \(String(describing: unknown))")
                return
            }
            #expect(reason.contains("handshake"))
            let byAddress = try #require(URL(string: "https://127.0.0.1:\(base.port ?? 0)"))
            let misnamed = await #expect(throws: NetworkError.self) { try await Self.echo(byAddress, rightRoot) }
            guard case .untrustedServer = misnamed else {
                Issue.record("expected untrustedServer, got \(String(describing: misnamed))")
                return
            }
        }
    }

    @Test("a trusting transport refuses plain http rather than send a request past its pins")
    func plainHTTPIsRefused() async throws {
        let certificates = try TestCertificates()
        let transport = try AsyncHTTPClientTransport(
            trust: ServerTrust(
                rootCertificatesPEM: certificates.authorityPEM,
                publicKeyPins: [try await Self.pin(of: certificates.serverPEM)]))
        try await KitFixture.with { fixture in
            let error = await #expect(throws: NetworkError.self) { try await Self.echo(fixture.baseURL, transport) }
            #expect(error?.description.contains("not TLS") == true)
            #expect(fixture.hits.count("echo") == 0)
        }
    }

    @Test("bad trust is a typed error when the transport is made: not base64, wrong length, no certificate")
    func badTrustIsRefusedAtConfiguration() throws {
        #expect(throws: ServerTrustError.invalidPin("\"sha256/not base64!\" is not base64")) {
            try PublicKeyPin(base64: "sha256/not base64!")
        }
        #expect(throws: ServerTrustError.invalidPin("3 bytes, where a SHA-256 has 32")) {
            try PublicKeyPin(base64: "AAAA")
        }
        #expect(throws: ServerTrustError.invalidCertificate(reason: "no BEGIN CERTIFICATE block")) {
            try ServerTrust(rootCertificatesPEM: "hello")
        }
        #expect(throws: ServerTrustError.self) {
            try AsyncHTTPClientTransport(trust: ServerTrust(rootCertificates: [Data("not DER".utf8)]))
        }
    }

    @Test("URLSession on Linux cannot check pins, so asking it to is an error when the transport is made")
    func urlSessionRefusesTrust() async throws {
        let certificates = try TestCertificates()
        let trust = ServerTrust(publicKeyPins: [try await Self.pin(of: certificates.serverPEM)])
        #expect {
            try URLSessionTransport(trust: trust)
        } throws: { error in
            guard case .unsupported(let reason) = error as? ServerTrustError else { return false }
            return reason.contains("AsyncHTTPClientTransport(trust:)")
        }
    }
}

/// The `ServerTrust` article's code, run.
@Suite("Server trust article")
struct ServerTrustArticleTests {
    @Test("the article's trust and its error handling work as written")
    func articleExample() async throws {
        let certificates = try TestCertificates()
        let authorityPEM = certificates.authorityPEM
        let currentKeyPin = try await ServerTrustTests.pin(of: certificates.serverPEM).description
        let backupKeyPin = try await ServerTrustTests.pin(of: try certificates.reissued().serverPEM).description
        try await ServerTrustTests.behindTLS(certificates) { _, serverURL in
            let trust = try ServerTrust(
                rootCertificatesPEM: authorityPEM,
                publicKeyPins: [
                    try PublicKeyPin(base64: currentKeyPin),
                    try PublicKeyPin(base64: backupKeyPin),
                ])
            let client = APIClient(
                baseURL: serverURL,
                performer: NetworkRequestPerformer(transport: try AsyncHTTPClientTransport(trust: trust)))
            #expect(try await client.send(Get<Echo>(path: "/echo")).path == "/echo")
        }
        // The error branch, against a server whose key is pinned by neither.
        try await ServerTrustTests.behindTLS(try certificates.reissued()) { _, serverURL in
            let trust = try ServerTrust(
                rootCertificatesPEM: authorityPEM,
                publicKeyPins: [try PublicKeyPin(base64: currentKeyPin), try PublicKeyPin(base64: backupKeyPin)])
            let client = APIClient(
                baseURL: serverURL,
                performer: NetworkRequestPerformer(transport: try AsyncHTTPClientTransport(trust: trust)))
            var printed = ""
            func print(_ text: String) { printed = text }
            do {
                _ = try await client.send(Get<Echo>(path: "/echo"))
            } catch NetworkError.untrustedServer(let reason) {
                print(reason)  // its key sha256/… matches none of the 2 pinned keys
            }
            #expect(printed.contains("matches none of the 2 pinned keys"))
        }
    }
}
