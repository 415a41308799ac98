import Foundation

/// The sizes every photo is served in, made once when it is uploaded.
public enum PhotoSize: String, Sendable, Hashable, CaseIterable, Codable {
    /// For lists: the longest side at most 240 px.
    case thumb
    /// For a product's page: at most 960 px.
    case medium
    /// The photo itself, at most 2048 px.
    case full

    /// The longest side, in pixels (a smaller photo keeps its own size: nothing is enlarged).
    public var longestSide: Int {
        switch self {
        case .thumb: 240
        case .medium: 960
        case .full: 2048
        }
    }

    /// The URL of this size of the photo whose full size is at `fullURL`: the same resource, with
    /// `size` in its query (`full` is the URL itself).
    public func url(_ fullURL: String) -> String {
        guard self != .full else { return fullURL }
        return fullURL + (fullURL.contains("?") ? "&" : "?") + "size=\(rawValue)"
    }
}

/// A photo of a product or a chat message, in its three sizes.
///
/// Every size is a URL relative to the server that names one upload, so what it serves never
/// changes: clients may cache each for as long as they like.
public struct Photo: Codable, Sendable, Equatable, Hashable {
    /// Opaque identifier (a product's photo order and a message's attachments name photos by it).
    public var id: String
    /// The full size's width in pixels, the EXIF orientation applied; `nil` for a photo uploaded
    /// before sizes existed and not yet converted by the operator's `bazaar-server photos rebuild`.
    public var width: Int?
    /// The full size's height in pixels (`nil` as for ``width``).
    public var height: Int?
    /// The longest side at most 240 px: for lists and grids.
    public var thumbURL: String
    /// At most 960 px: for a product's page, a photo in a conversation.
    public var mediumURL: String
    /// At most 2048 px: the photo itself.
    public var fullURL: String

    /// A photo whose full size is served at `fullURL`, the other sizes beside it.
    public init(id: String, width: Int?, height: Int?, fullURL: String) {
        self.id = id
        self.width = width
        self.height = height
        thumbURL = PhotoSize.thumb.url(fullURL)
        mediumURL = PhotoSize.medium.url(fullURL)
        self.fullURL = fullURL
    }

    /// The URL of `size`.
    public func url(_ size: PhotoSize) -> String {
        switch size {
        case .thumb: thumbURL
        case .medium: mediumURL
        case .full: fullURL
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, width, height, thumbURL, mediumURL, fullURL
    }

    /// Encodes every field, `null` for an unknown width and height (the contract lists them).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(thumbURL, forKey: .thumbURL)
        try container.encode(mediumURL, forKey: .mediumURL)
        try container.encode(fullURL, forKey: .fullURL)
    }
}
