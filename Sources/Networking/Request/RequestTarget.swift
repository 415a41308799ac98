import Foundation

/// The scheme, authority and encoded path-with-query of a request, joined from a base URL and a path.
struct RequestTarget: Sendable, Equatable {
    var scheme: String
    var authority: String
    var pathAndQuery: String

    /// Joins `path` below `baseURL`'s own path and appends the encoded `query`.
    init(baseURL: URL, path: String, query: QueryParameters) throws(RequestBuildError) {
        guard let components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { throw .invalidBaseURL(baseURL.absoluteString) }
        guard !path.contains("?"), !path.contains("#") else { throw .invalidPath(path) }

        self.scheme = scheme
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        authority = components.port.map { "\(hostPart):\($0)" } ?? hostPart

        var joined = components.percentEncodedPath
        while joined.hasSuffix("/") { joined.removeLast() }
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

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
