import Foundation

/// Which TLS servers a transport believes: roots of your own beside (or instead of) the system's,
/// and public-key pins, of which the server's key must match one.
///
/// A pin is the SHA-256 of the server certificate's SubjectPublicKeyInfo, the form HPKP and OkHttp
/// use. Give the key you serve today and a backup key you have not deployed yet: when you rotate to
/// the backup, apps already shipped go on connecting. Print a certificate's pin with
///
/// ```
/// openssl x509 -in server.pem -pubkey -noout | openssl pkey -pubin -outform der \
///   | openssl dgst -sha256 -binary | base64
/// ```
///
/// The certificate is still verified as usual first (a trusted chain, the host's name, the dates):
/// a pin narrows trust, it never widens it. `AsyncHTTPClientTransport(trust:)` honours all of it;
/// `URLSessionTransport(trust:)` refuses it with ``ServerTrustError/unsupported(reason:)``
/// where it cannot be honoured, rather than ignoring it.
public struct ServerTrust: Sendable, Hashable {
    /// Certificates, DER-encoded, trusted as roots.
    public var rootCertificates: [Data]
    /// Whether ``rootCertificates`` are the only roots (`true`) or join the system's (`false`).
    public var replacesSystemRoots: Bool
    /// The pins; empty means no pinning. When not empty, the server's key must match one.
    public var publicKeyPins: [PublicKeyPin]

    /// Trusts `rootCertificates` (DER) instead of, or beside, the system's, and pins `publicKeyPins`.
    public init(rootCertificates: [Data] = [], replacesSystemRoots: Bool = true, publicKeyPins: [PublicKeyPin] = []) {
        self.rootCertificates = rootCertificates
        self.replacesSystemRoots = replacesSystemRoots
        self.publicKeyPins = publicKeyPins
    }

    /// Trusts the certificates in `pem` (one or more `BEGIN CERTIFICATE` blocks) as roots.
    ///
    /// - Throws: ``ServerTrustError/invalidCertificate(reason:)`` when `pem` holds no certificate or
    ///   a block is not base64.
    public init(rootCertificatesPEM pem: String, replacesSystemRoots: Bool = true, publicKeyPins: [PublicKeyPin] = [])
        throws(ServerTrustError)
    {
        self.init(
            rootCertificates: try Self.derBlocks(inPEM: pem), replacesSystemRoots: replacesSystemRoots,
            publicKeyPins: publicKeyPins)
    }

    /// The DER bytes of each `CERTIFICATE` block in `pem`.
    static func derBlocks(inPEM pem: String) throws(ServerTrustError) -> [Data] {
        let begin = "-----BEGIN CERTIFICATE-----"
        let end = "-----END CERTIFICATE-----"
        var blocks: [Data] = []
        var rest = pem[...]
        while let opening = rest.range(of: begin) {
            guard let closing = rest.range(of: end, range: opening.upperBound..<rest.endIndex) else {
                throw .invalidCertificate(reason: "a CERTIFICATE block has no END line")
            }
            let text = rest[opening.upperBound..<closing.lowerBound].filter { !$0.isWhitespace }
            guard let der = Data(base64Encoded: String(text)), !der.isEmpty else {
                throw .invalidCertificate(reason: "a CERTIFICATE block is not base64")
            }
            blocks.append(der)
            rest = rest[closing.upperBound...]
        }
        guard !blocks.isEmpty else { throw .invalidCertificate(reason: "no BEGIN CERTIFICATE block") }
        return blocks
    }
}

/// The SHA-256 of a SubjectPublicKeyInfo: what a server's key is pinned by.
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes of the hash.
    public let sha256: Data

    /// A pin from its 32 bytes.
    ///
    /// - Throws: ``ServerTrustError/invalidPin(_:)`` when `sha256` is not 32 bytes long.
    public init(sha256: Data) throws(ServerTrustError) {
        guard sha256.count == 32 else {
            throw .invalidPin("\(sha256.count) bytes, where a SHA-256 has 32")
        }
        self.sha256 = sha256
    }

    /// A pin from its base64 text, with or without OkHttp's `sha256/` prefix.
    ///
    /// - Throws: ``ServerTrustError/invalidPin(_:)`` for text that is not the base64 of 32 bytes.
    public init(base64 text: String) throws(ServerTrustError) {
        let digits = text.hasPrefix("sha256/") ? String(text.dropFirst(7)) : text
        guard let bytes = Data(base64Encoded: digits) else {
            throw .invalidPin("\"\(text)\" is not base64")
        }
        try self.init(sha256: bytes)
    }

    /// `sha256/` and the base64 of the hash, as OkHttp and HPKP write a pin.
    public var description: String { "sha256/" + sha256.base64EncodedString() }
}

/// Why a ``ServerTrust`` cannot be used: thrown when a transport is made, never per request.
public enum ServerTrustError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A root certificate that could not be read.
    case invalidCertificate(reason: String)
    /// A pin that is not a SHA-256 in base64.
    case invalidPin(String)
    /// The transport cannot honour custom trust here (`URLSession` on Linux has no trust hook).
    case unsupported(reason: String)

    public var description: String {
        switch self {
        case .invalidCertificate(let reason): "invalid root certificate: \(reason)"
        case .invalidPin(let reason): "invalid public-key pin: \(reason)"
        case .unsupported(let reason): "custom server trust is not supported: \(reason)"
        }
    }
}
