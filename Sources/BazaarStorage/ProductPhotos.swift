import BazaarAPI
import Foundation

/// A photo being added to a product: its new id and its sizes.
public struct NewProductPhoto: Sendable {
    /// The photo's id, new for every upload (so its URL never serves two images).
    public var id: String
    /// The image, in every size.
    public var sizes: PhotoSizes
    /// The most bytes the seller's product photos may take with this one (all sizes counted).
    public var allowance: Int

    /// Makes a new photo, under the usual allowance (``ProductPhotoOrder/bytesPerSeller``).
    public init(id: String, sizes: PhotoSizes, allowance: Int = ProductPhotoOrder.bytesPerSeller) {
        self.id = id
        self.sizes = sizes
        self.allowance = allowance
    }

    /// How the product's photo list names it.
    public var entry: PhotoEntry { PhotoEntry(id: id, dimensions: sizes.dimensions) }
}

/// What came of changing a product's photos.
public enum ProductPhotoChange: Sendable, Equatable {
    /// Done: the product as it is now.
    case changed(Product)
    /// No such product, it is not the caller's, or (removing) no such photo on it.
    case notFound
    /// The product already has ``ProductPhotoOrder/limit`` photos.
    case limitReached
    /// The seller's product photos would pass ``ProductPhotoOrder/bytesPerSeller`` with this one.
    case storageFull
    /// A new order that does not name each of the product's photos exactly once.
    case mismatch
}

/// One photo as a list column keeps it (a product's `photo_ids`, a message's `attachments`):
/// its id, and its full size's dimensions once it has sizes (`id:WIDTHxHEIGHT`; a bare `id` is a
/// photo uploaded before sizes existed). Products and messages are read far more often than
/// photos, so what their JSON shows of a photo is kept with them and needs no join.
public struct PhotoEntry: Sendable, Equatable {
    /// The photo's id.
    public var id: String
    /// The full size's width and height, or `nil` until the photo has sizes.
    public var dimensions: PixelSize?

    /// An entry.
    public init(id: String, dimensions: PixelSize?) {
        self.id = id
        self.dimensions = dimensions
    }

    /// Reads one token of a column; `nil` for one that is not ours.
    init?(token: Substring) {
        let parts = token.split(separator: ":", maxSplits: 1)
        guard let id = parts.first, !id.isEmpty else { return nil }
        self.id = String(id)
        dimensions = parts.count == 2 ? PixelSize(parts[1]) : nil
    }

    /// The token the column keeps.
    var token: String {
        guard let dimensions else { return id }
        return "\(id):\(dimensions.width)x\(dimensions.height)"
    }

    /// The photo served at `fullURL`.
    public func photo(fullURL: String) -> Photo {
        Photo(id: id, width: dimensions?.width, height: dimensions?.height, fullURL: fullURL)
    }

    /// Reads a column's value: the entries in order.
    public static func entries(column: String) -> [PhotoEntry] {
        column.split(separator: " ").compactMap(PhotoEntry.init(token:))
    }

    /// The column's value for `entries`.
    public static func column(_ entries: [PhotoEntry]) -> String {
        entries.map(\.token).joined(separator: " ")
    }
}

/// A width and a height in pixels.
public struct PixelSize: Sendable, Equatable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Reads `WIDTHxHEIGHT`.
    init?(_ text: Substring) {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        self.init(width: width, height: height)
    }
}

/// A product's photos in order, as the `photo_ids` column keeps them (see ``PhotoEntry``), and
/// the changes a seller can make to them. The same rules on both backends, checked here once.
public struct ProductPhotoOrder: Sendable, Equatable {
    /// The most photos a product has.
    public static let limit = Product.photoLimit
    /// The most bytes of product photos one seller keeps, over all their products (64 MiB: a
    /// dozen fully photographed listings at the 5 MiB upload limit, hundreds at phone sizes).
    /// Without it the product quota alone would let one account fill the disk.
    public static let bytesPerSeller = 64 << 20

    /// The photos, cover first.
    public private(set) var entries: [PhotoEntry]

    /// Reads the column's value.
    public init(column: String) {
        entries = PhotoEntry.entries(column: column)
    }

    /// The column's value.
    public var column: String { PhotoEntry.column(entries) }

    /// The ids, cover first.
    public var ids: [String] { entries.map(\.id) }

    /// Adds `entry` last; false when the product is full.
    public mutating func append(_ entry: PhotoEntry) -> Bool {
        guard entries.count < Self.limit else { return false }
        entries.append(entry)
        return true
    }

    /// Removes `id`; false when it is not one of them.
    public mutating func remove(_ id: String) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.remove(at: index)
        return true
    }

    /// Takes `order`; false unless it names each id exactly once.
    public mutating func reorder(_ order: [String]) -> Bool {
        guard order.count == entries.count, Set(order) == Set(ids), Set(order).count == order.count else {
            return false
        }
        let byId = Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0) })
        entries = order.compactMap { byId[$0] }
        return true
    }

    /// Records the dimensions photo `id` has now that it has sizes; false when it is not one of them.
    public mutating func setDimensions(_ dimensions: PixelSize, of id: String) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries[index].dimensions = dimensions
        return true
    }

    /// The photos of product `productId`, in order.
    public func photos(productId: String) -> [Photo] {
        entries.map { $0.photo(fullURL: APIRoutes.productPhoto.path(productId, $0.id)) }
    }
}
