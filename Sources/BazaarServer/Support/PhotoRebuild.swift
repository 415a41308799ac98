import BazaarAPI
import BazaarImages
import BazaarStorage
import Foundation

/// Gives sizes to the photos uploaded before the server made them (`bazaar-server photos
/// rebuild`): each is run through the same pipeline as an upload (orientation applied, metadata
/// dropped, three sizes) and stored in a transaction of its own that also empties the upload.
///
/// Idempotent and resumable: a photo with sizes is never found again, so a second run finds
/// nothing and a run stopped anywhere (even killed) goes on where it stopped. A photo that does
/// not decode is left as it was and named in the outcome, and the run goes on past it.
public struct PhotoRebuild: Sendable {
    /// What a run did.
    public struct Outcome: Sendable, Equatable {
        /// Photos given sizes.
        public var converted = 0
        /// Photos that did not decode, by where they are (`product PRODUCT photo PHOTO`, `profile
        /// USER`) and why; left as they were.
        public var unreadable: [String] = []
        /// Photos another run converted first (found unsized, sized by the time this one stored).
        public var convertedElsewhere = 0
    }

    let store: any BazaarStore
    let pipeline: ImagePipeline
    let now: @Sendable () -> Date
    let batch: Int

    /// A rebuild of `store`'s photos, `batch` read at a time.
    public init(store: any BazaarStore, now: @escaping @Sendable () -> Date = Date.init, batch: Int = 16)
        throws(ImageError)
    {
        self.store = store
        pipeline = try ImagePipeline()
        self.now = now
        self.batch = max(1, batch)
    }

    /// Converts every photo without sizes; `progress` hears of each one done (converted or not).
    public func run(progress: @Sendable (UnsizedPhoto.Owner, Outcome) -> Void = { _, _ in }) async throws -> Outcome {
        var outcome = Outcome()
        var after: String?
        while true {
            let photos = try await store.unsizedPhotos(after: after, limit: batch)
            guard let last = photos.last else { return outcome }
            after = last.owner.photoId
            for photo in photos {
                do {
                    let sizes = try PhotoSizes(pipeline.sizes(of: photo.data), uploadedAt: now())
                    if try await store.storeSizes(sizes, of: photo.owner) {
                        outcome.converted += 1
                    } else {
                        outcome.convertedElsewhere += 1
                    }
                } catch let error as ImageError {
                    outcome.unreadable.append("\(Self.describe(photo.owner)): \(error)")
                }
                progress(photo.owner, outcome)
            }
        }
    }

    /// Where a photo is, for the operator.
    static func describe(_ owner: UnsizedPhoto.Owner) -> String {
        switch owner {
        case .product(let productId, let photoId): "product \(productId) photo \(photoId)"
        case .profile(let userId): "profile \(userId)"
        }
    }
}

extension PhotoSizes {
    /// The sizes the image pipeline made, as stored, uploaded at `uploadedAt`.
    init(_ images: [PhotoSize: EncodedImage], uploadedAt: Date) throws(ImageError) {
        guard let full = images[.full], let medium = images[.medium], let thumb = images[.thumb] else {
            throw ImageError.notAnImage("the pipeline made no sizes")
        }
        func stored(_ image: EncodedImage) -> StoredPhoto {
            StoredPhoto(mediaType: image.mediaType, data: image.data, updatedAt: uploadedAt)
        }
        self.init(
            full: stored(full), medium: stored(medium), thumb: stored(thumb),
            dimensions: PixelSize(width: full.width, height: full.height))
    }
}
