import Foundation
import NIOSSL
import Networking
import Synchronization

/// The TLS settings of a ``ServerTrust`` and one ``TrustTunnel`` per origin, opened on first use.
final class TrustedOrigins: Sendable {
    private let context: NIOSSLContext
    private let pins: Set<Data>
    /// Opening tunnels, by `host:port`: concurrent first requests share one.
    private let tunnels = Mutex<[String: Task<TrustTunnel, any Error>]>([:])

    init(_ trust: ServerTrust) throws(ServerTrustError) {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if !trust.rootCertificates.isEmpty {
            var roots: [NIOSSLCertificate] = []
            for der in trust.rootCertificates {
                do {
                    roots.append(try NIOSSLCertificate(bytes: Array(der), format: .der))
                } catch {
                    throw .invalidCertificate(reason: "\(error)")
                }
            }
            if trust.replacesSystemRoots {
                configuration.trustRoots = .certificates(roots)
            } else {
                configuration.additionalTrustRoots = [.certificates(roots)]
            }
        }
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw .invalidCertificate(reason: "\(error)")
        }
        pins = Set(trust.publicKeyPins.map(\.sha256))
    }

    /// The tunnel to `authority` (`host`, `host:port` or `[v6]:port`); only `https` is allowed.
    func tunnel(scheme: String, authority: String) async throws(NetworkError) -> TrustTunnel {
        guard scheme == "https" else {
            throw .untrustedServer(
                reason: "\(scheme)://\(authority) is not TLS, and this transport trusts TLS servers only")
        }
        guard let (host, port) = Self.split(authority) else {
            throw .requestBuildFailed(.invalidPath(authority))
        }
        let key = "\(host):\(port)"
        let opening = tunnels.withLock { tunnels in
            if let opening = tunnels[key] { return opening }
            let context = context
            let pins = pins
            let opening = Task { try await TrustTunnel.open(host: host, port: port, context: context, pins: pins) }
            tunnels[key] = opening
            return opening
        }
        do {
            return try await opening.value
        } catch {
            // Not kept: the next request tries again.
            tunnels.withLock { _ = $0.removeValue(forKey: key) }
            throw .transport(reason: "could not open the TLS tunnel: \(error)")
        }
    }

    /// `authority` as a host (brackets removed) and a port (443 when absent).
    static func split(_ authority: String) -> (String, Int)? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let host = String(authority[authority.index(after: authority.startIndex)..<close])
            let rest = authority[authority.index(after: close)...]
            if rest.isEmpty { return (host, 443) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (host, port)
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (authority, 443)
        case 2:
            guard let port = Int(parts[1]), !parts[0].isEmpty else { return nil }
            return (String(parts[0]), port)
        default: return nil
        }
    }
}
