/// The host names `bazaar web` answers to: loopback's (`127.0.0.1`, `localhost`, `::1`) and those
/// the operator names (the app behind a proxy).
///
/// A request for any other name is refused before it reaches a session. Without this, a page on
/// another site whose name is then pointed at 127.0.0.1 (DNS rebinding) reaches the app as a page
/// of the same origin, with a browser's cookies, and reads what it answers.
public struct HostNames: Sendable, Equatable {
    /// The names answered to, lowercased, without port or brackets.
    public let names: Set<String>

    /// Loopback's names and `extra`.
    public init(_ extra: [String] = []) {
        names = Set(["127.0.0.1", "localhost", "::1"]).union(extra.map { $0.lowercased() })
    }

    /// Whether `name` can be configured: a DNS name or an IP address, without scheme, port or path.
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 253
            && name.unicodeScalars.allSatisfy {
                ($0.properties.isASCIIHexDigit || ("g"..."z").contains($0) || ("G"..."Z").contains($0)
                    || $0 == "." || $0 == "-" || $0 == ":")
            }
    }

    /// Whether a request whose `Host` (HTTP/1.1) or `:authority` (HTTP/2) is `authority` is for
    /// this app. A request without one is not.
    public func accepts(authority: String?) -> Bool {
        guard let authority, let host = Self.host(of: authority) else { return false }
        return names.contains(host.lowercased())
    }

    /// The host part of an authority: `[::1]:8080` → `::1`, `example.org:80` → `example.org`.
    static func host(of authority: String) -> String? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return nil }
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let host = parts.first, !host.isEmpty else { return nil }
        return String(host)
    }
}
