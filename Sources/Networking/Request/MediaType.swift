import Foundation

/// A media type for a `Content-Type` header, such as `application/json; charset=utf-8`.
public struct MediaType: Sendable, Hashable, CustomStringConvertible {
    /// The full header value, parameters included.
    public var rawValue: String

    /// Wraps a header value as written.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The type and subtype without parameters, lower-cased (`application/json`).
    public var essence: String {
        let end = rawValue.firstIndex(of: ";") ?? rawValue.endIndex
        return rawValue[..<end].trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The header value.
    public var description: String { rawValue }

    /// `application/json; charset=utf-8`.
    public static let json = MediaType("application/json; charset=utf-8")
    /// `application/x-www-form-urlencoded; charset=utf-8`.
    public static let formURLEncoded = MediaType("application/x-www-form-urlencoded; charset=utf-8")
    /// `application/octet-stream`.
    public static let octetStream = MediaType("application/octet-stream")
    /// `text/plain; charset=utf-8`.
    public static let plainText = MediaType("text/plain; charset=utf-8")
    /// `image/jpeg`.
    public static let jpeg = MediaType("image/jpeg")
    /// `image/png`.
    public static let png = MediaType("image/png")
    /// `image/webp`.
    public static let webp = MediaType("image/webp")

    /// `multipart/form-data` with the given boundary.
    public static func multipartFormData(boundary: String) -> MediaType {
        MediaType("multipart/form-data; boundary=\(boundary)")
    }
}
