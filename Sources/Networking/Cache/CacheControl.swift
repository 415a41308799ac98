/// The directives of a `Cache-Control` header (RFC 9111 §5.2) that a private client cache obeys.
public struct CacheControl: Sendable, Hashable {
    /// `max-age`: seconds the response stays fresh.
    public var maxAge: Int?
    /// `no-store`: never keep it.
    public var noStore = false
    /// `no-cache`: keep it, but ask the server before every use.
    public var noCache = false
    /// `private`: for one user only (a client cache may keep it).
    public var isPrivate = false
    /// `must-revalidate`: never use it stale.
    public var mustRevalidate = false

    /// Parses a header value; unknown directives are ignored, repeated headers can be joined with commas.
    public init(_ header: String?) {
        guard let header else { return }
        for rawDirective in header.split(separator: ",") {
            let parts = rawDirective.split(separator: "=", maxSplits: 1)
            guard let rawName = parts.first else { continue }
            let name = rawName.trimmingSpaces().lowercased()
            let argument = parts.count > 1 ? parts[1].trimmingSpaces().trimmingQuotes() : nil
            switch name {
            case "max-age":
                if let seconds = argument.flatMap({ Int($0) }), seconds >= 0 {
                    maxAge = maxAge.map { min($0, seconds) } ?? seconds
                }
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "private": isPrivate = true
            case "must-revalidate": mustRevalidate = true
            default: break
            }
        }
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var slice = self
        while slice.first == " " || slice.first == "\t" { slice.removeFirst() }
        while slice.last == " " || slice.last == "\t" { slice.removeLast() }
        return slice
    }

    fileprivate func trimmingQuotes() -> String {
        var slice = self
        if slice.count >= 2, slice.first == "\"", slice.last == "\"" {
            slice = slice.dropFirst().dropLast()
        }
        return String(slice)
    }
}
