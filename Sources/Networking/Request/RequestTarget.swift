import Foundation
import Synchronization

/// The scheme, authority and encoded path-with-query of a request, joined from a base URL and a path.
struct RequestTarget: Sendable, Equatable {
    var scheme: String
    var authority: String
    var pathAndQuery: String

    /// Joins `path` below `baseURL`'s own path and appends the encoded `query`.
    init(baseURL: URL, path: String, query: QueryParameters) throws(RequestBuildError) {
        let base = try BaseURL.parts(of: baseURL)
        guard !path.utf8.contains(UInt8(ascii: "?")), !path.utf8.contains(UInt8(ascii: "#")) else {
            throw .invalidPath(path)
        }
        scheme = base.scheme
        authority = base.authority

        var joined = base.path
        let encodedPath = Self.encodePath(path)
        if !encodedPath.isEmpty, !encodedPath.hasPrefix("/") { joined.append("/") }
        joined.append(encodedPath)
        if joined.isEmpty { joined = "/" }
        if !query.isEmpty {
            joined.append("?")
            joined.append(query.percentEncoded())
        }
        pathAndQuery = joined
    }

    /// Escapes what may not stand in a path (spaces, `?`, `#`, non-ASCII), keeping `/` and `%XX`.
    static func encodePath(_ path: String) -> String {
        // The common case (an API path of plain characters) needs no copy.
        if path.utf8.allSatisfy({ PercentEncoding.isUnreserved($0) || Self.subDelimsAndPath.contains($0) }) {
            return path
        }
        var output = ""
        var bytes = Array(path.utf8)[...]
        while let byte = bytes.popFirst() {
            if PercentEncoding.isUnreserved(byte) || Self.subDelimsAndPath.contains(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else if byte == UInt8(ascii: "%"), bytes.count >= 2,
                bytes.prefix(2).allSatisfy({ $0.isHexDigit })
            {
                output.append("%")
            } else {
                output.append(String(format: "%%%02X", byte))
            }
        }
        return output
    }

    private static let subDelimsAndPath: Set<UInt8> = Set("/!$&'()*+,;=:@".utf8)
}

/// A base URL taken apart once: a client sends every request to the same one, and parsing it with
/// `URLComponents` on every request was a fifth of a cache hit's cost.
struct BaseURL: Sendable, Equatable {
    /// `http` or `https`, lower-cased.
    var scheme: String
    /// Host (IPv6 in brackets) and port if any.
    var authority: String
    /// The percent-encoded path without trailing slashes (empty for none).
    var path: String

    /// The last base URL parsed, so the common case is one comparison.
    private static let last = Mutex<(url: URL, parts: BaseURL)?>(nil)

    /// The parts of `url`, from the memo when it is the base URL parsed last.
    static func parts(of url: URL) throws(RequestBuildError) -> BaseURL {
        if let last = last.withLock({ $0 }), last.url == url { return last.parts }
        let parts = try BaseURL(url)
        last.withLock { $0 = (url, parts) }
        return parts
    }

    private init(_ url: URL) throws(RequestBuildError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { throw .invalidBaseURL(url.absoluteString) }
        self.scheme = scheme
        let hostPart = host.utf8.contains(UInt8(ascii: ":")) && !host.hasPrefix("[") ? "[\(host)]" : host
        authority = components.port.map { "\(hostPart):\($0)" } ?? hostPart
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        self.path = path
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
