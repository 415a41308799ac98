import BazaarAPI
import Foundation

/// A photo in every ``PhotoSize``, as the server's image pipeline made it, ready to store.
public struct PhotoSizes: Sendable, Equatable {
    /// The full size (at most 2048 px).
    public var full: StoredPhoto
    /// The medium size (at most 960 px).
    public var medium: StoredPhoto
    /// The thumbnail (at most 240 px).
    public var thumb: StoredPhoto
    /// The full size's width and height.
    public var dimensions: PixelSize

    /// A photo's sizes.
    public init(full: StoredPhoto, medium: StoredPhoto, thumb: StoredPhoto, dimensions: PixelSize) {
        self.full = full
        self.medium = medium
        self.thumb = thumb
        self.dimensions = dimensions
    }

    /// One size.
    public subscript(size: PhotoSize) -> StoredPhoto {
        switch size {
        case .thumb: thumb
        case .medium: medium
        case .full: full
        }
    }

    /// Every size with its name, as the `photo_sizes` table keeps them.
    public var all: [(size: PhotoSize, photo: StoredPhoto)] {
        PhotoSize.allCases.map { ($0, self[$0]) }
    }

    /// The bytes of all sizes together: what the photo costs its owner's allowance.
    public var byteCount: Int { full.data.count + medium.data.count + thumb.data.count }
}

/// A photo uploaded before photos had sizes: the upload as it came, metadata and all, waiting for
/// `bazaar-server photos rebuild` to give it sizes and empty it.
public struct UnsizedPhoto: Sendable, Equatable {
    /// Whose photo it is.
    public enum Owner: Sendable, Equatable, Hashable {
        /// Photo `photoId` of product `productId`.
        case product(productId: String, photoId: String)
        /// The profile photo of user `userId`.
        case profile(userId: String)

        /// The id its sizes are kept under (the photo's id; the user's id for a profile photo).
        public var photoId: String {
            switch self {
            case .product(_, let photoId): photoId
            case .profile(let userId): userId
            }
        }
    }

    /// Whose photo it is.
    public var owner: Owner
    /// The upload's bytes.
    public var data: Data

    /// An unsized photo.
    public init(owner: Owner, data: Data) {
        self.owner = owner
        self.data = data
    }
}
