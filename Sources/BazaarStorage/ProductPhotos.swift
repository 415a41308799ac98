import BazaarAPI
import Foundation

/// A photo being added to a product: its new id and its image.
public struct NewProductPhoto: Sendable {
    /// The photo's id, new for every upload (so its URL never serves two images).
    public var id: String
    /// The image.
    public var photo: StoredPhoto

    /// Makes a new photo.
    public init(id: String, photo: StoredPhoto) {
        self.id = id
        self.photo = photo
    }
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

/// A product's photo ids in order, as the `photo_ids` column keeps them (space-separated), and the
/// changes a seller can make to them. The same rules on both backends, checked here once.
public struct ProductPhotoOrder: Sendable, Equatable {
    /// The most photos a product has.
    public static let limit = 8
    /// The most bytes of product photos one seller keeps, over all their products (64 MiB: a
    /// dozen fully photographed listings at the 5 MiB upload limit, hundreds at phone sizes).
    /// Without it the product quota alone would let one account fill the disk.
    public static let bytesPerSeller = 64 << 20

    /// The ids, cover first.
    public private(set) var ids: [String]

    /// Reads the column's value.
    public init(column: String) {
        ids = column.split(separator: " ").map(String.init)
    }

    /// The column's value.
    public var column: String { ids.joined(separator: " ") }

    /// Adds `id` last; false when the product is full.
    public mutating func append(_ id: String) -> Bool {
        guard ids.count < Self.limit else { return false }
        ids.append(id)
        return true
    }

    /// Removes `id`; false when it is not one of them.
    public mutating func remove(_ id: String) -> Bool {
        guard let index = ids.firstIndex(of: id) else { return false }
        ids.remove(at: index)
        return true
    }

    /// Takes `order`; false unless it names each id exactly once.
    public mutating func reorder(_ order: [String]) -> Bool {
        guard order.count == ids.count, Set(order) == Set(ids), Set(order).count == order.count else { return false }
        ids = order
        return true
    }

    /// The URLs of the photos of product `productId`, in order.
    public func urls(productId: String) -> [String] {
        ids.map { APIRoutes.productPhoto.path(productId, $0) }
    }
}
