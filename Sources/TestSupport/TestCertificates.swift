import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A certificate authority made for one test and a server certificate it signed for `localhost`,
/// valid for an hour: TLS against a real server without a file on disk.
public struct TestCertificates: Sendable {
    /// The authority's certificate, to trust.
    public let authority: NIOSSLCertificate
    /// The server's certificate.
    public let server: NIOSSLCertificate
    /// The server's private key.
    public let serverKey: NIOSSLPrivateKey
    /// The authority's certificate as PEM text, as an app bundles it.
    public let authorityPEM: String
    /// The server's certificate as PEM text, as `openssl` reads it.
    public let serverPEM: String

    /// The authority's signing key, kept so ``reissued()`` can sign a new server certificate.
    private let authorityKey: P256.Signing.PrivateKey
    private let authorityCertificate: Certificate

    /// Makes a new authority and a server certificate it signed.
    public init() throws {
        let now = Date()
        let authorityKey = P256.Signing.PrivateKey()
        let authorityName = try DistinguishedName { CommonName("Bazaar test authority") }
        let authorityCertificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(authorityKey.publicKey),
            notValidBefore: now - 300, notValidAfter: now + 3600, issuer: authorityName, subject: authorityName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(authorityKey))
        try self.init(authorityKey: authorityKey, authorityCertificate: authorityCertificate)
    }

    /// A server certificate for a new key, signed by `authorityKey`.
    private init(authorityKey: P256.Signing.PrivateKey, authorityCertificate: Certificate) throws {
        let now = Date()
        let serverKey = P256.Signing.PrivateKey()
        let serverCertificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(serverKey.publicKey),
            notValidBefore: now - 300, notValidAfter: now + 3600, issuer: authorityCertificate.subject,
            subject: try DistinguishedName { CommonName("localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName("localhost")])
            },
            issuerPrivateKey: .init(authorityKey))
        self.authorityKey = authorityKey
        self.authorityCertificate = authorityCertificate
        authorityPEM = try authorityCertificate.serializeAsPEM().pemString
        serverPEM = try serverCertificate.serializeAsPEM().pemString
        authority = try NIOSSLCertificate(bytes: Array(authorityPEM.utf8), format: .pem)
        server = try NIOSSLCertificate(bytes: Array(serverPEM.utf8), format: .pem)
        self.serverKey = try NIOSSLPrivateKey(bytes: Array(serverKey.pemRepresentation.utf8), format: .pem)
    }

    /// The same authority, and a server certificate for a new key: a server that rotated its key.
    public func reissued() throws -> TestCertificates {
        try TestCertificates(authorityKey: authorityKey, authorityCertificate: authorityCertificate)
    }

    /// A client configuration that trusts only this authority.
    public var trustingClient: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates([authority])
        return configuration
    }
}
