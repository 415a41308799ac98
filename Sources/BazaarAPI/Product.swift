import Foundation

/// Something a seller offers.
public struct Product: Codable, Sendable, Equatable, Hashable {
    /// Opaque, stable identifier.
    public var id: String
    /// The id of the user who listed it.
    public var sellerId: String
    /// A short title (1-120 characters).
    public var title: String
    /// A longer description (0-5000 characters).
    public var description: String
    /// The price in the currency's minor unit; never negative.
    public var priceCents: Int
    /// ISO 4217 code, three upper-case letters (`EUR`, `USD`).
    public var currency: String
    /// When it was listed.
    public var createdAt: Date
    /// Its photos in the seller's order, each in three sizes: the first is the cover.
    public var photos: [Photo]
    /// How many photos a product may have.
    public static let photoLimit = 8
    /// The full size of each of ``photos``, in the same order (what servers sent before sizes
    /// existed, kept for the clients that read it).
    public var photoURLs: [String] { photos.map(\.fullURL) }
    /// For sale, reserved or sold.
    public var status: ProductStatus
    /// When its seller last changed its title, description, price or status (its listing time until then).
    public var updatedAt: Date
    /// How many people have saved it.
    public var favouriteCount: Int

    /// Creates a product value; a new listing is available, unchanged since it was listed, and
    /// saved by nobody.
    public init(
        id: String, sellerId: String, title: String, description: String, priceCents: Int,
        currency: String, createdAt: Date, photos: [Photo] = [], status: ProductStatus = .available,
        updatedAt: Date? = nil, favouriteCount: Int = 0
    ) {
        self.id = id
        self.sellerId = sellerId
        self.title = title
        self.description = description
        self.priceCents = priceCents
        self.currency = currency
        self.createdAt = createdAt
        self.photos = photos
        self.status = status
        self.updatedAt = updatedAt ?? createdAt
        self.favouriteCount = favouriteCount
    }

    private enum CodingKeys: String, CodingKey {
        case id, sellerId, title, description, priceCents, currency, createdAt, photos, photoURLs, status, updatedAt
        case favouriteCount
    }

    /// Decodes a product. Fields a server before them did not send read as their first value:
    /// available, unchanged since listed, saved by nobody; without `photos`, each of `photoURLs`
    /// is a photo of unknown size whose three sizes are the one URL.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        sellerId = try container.decode(String.self, forKey: .sellerId)
        title = try container.decode(String.self, forKey: .title)
        description = try container.decode(String.self, forKey: .description)
        priceCents = try container.decode(Int.self, forKey: .priceCents)
        currency = try container.decode(String.self, forKey: .currency)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        if let photos = try container.decodeIfPresent([Photo].self, forKey: .photos) {
            self.photos = photos
        } else {
            photos = (try container.decodeIfPresent([String].self, forKey: .photoURLs) ?? []).map { url in
                let id = url.split(separator: "/").last.map(String.init) ?? url
                var photo = Photo(id: id, width: nil, height: nil, fullURL: url)
                (photo.thumbURL, photo.mediumURL) = (url, url)
                return photo
            }
        }
        status = try container.decodeIfPresent(ProductStatus.self, forKey: .status) ?? .available
        updatedAt = try container.decodeIfPresent(Date.self, forKey: .updatedAt) ?? createdAt
        favouriteCount = try container.decodeIfPresent(Int.self, forKey: .favouriteCount) ?? 0
    }

    /// Encodes every field, ``photoURLs`` among them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(sellerId, forKey: .sellerId)
        try container.encode(title, forKey: .title)
        try container.encode(description, forKey: .description)
        try container.encode(priceCents, forKey: .priceCents)
        try container.encode(currency, forKey: .currency)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(photos, forKey: .photos)
        try container.encode(photoURLs, forKey: .photoURLs)
        try container.encode(status, forKey: .status)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(favouriteCount, forKey: .favouriteCount)
    }
}

/// `PUT /v1/products/{id}/photos`: the product's photos in a new order.
public struct ReorderPhotosRequest: Codable, Sendable, Equatable {
    /// Every photo id of the product (the last path segment of its URL), each once, cover first.
    public var photoIds: [String]

    /// Makes a request.
    public init(photoIds: [String]) {
        self.photoIds = photoIds
    }
}
