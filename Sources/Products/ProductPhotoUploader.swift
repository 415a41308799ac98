import BazaarAPI
import Dependencies
import Networking
import Session

/// Adds photos to one of the seller's products, one upload at a time, reporting each upload's
/// progress. The sell form and the listing screen both add photos through it.
struct ProductPhotoUploader {
    /// What adding photos came to.
    struct Outcome: Sendable {
        /// The product after the last photo the server took (`nil` when it took none).
        var product: Product?
        /// A sentence for each photo the server did not take, and for those never sent.
        var problems: [String]
    }

    let network: AuthenticatedNetworkController

    /// Uploads `photos` in order to `productID`; `progress` hears each photo's share sent.
    ///
    /// A photo the server refuses (not an image, too large, no room left) is named in the outcome
    /// and the next one is tried; a failure that is not about the photo (the network, the server
    /// down, the session) ends the uploads and names the photos left.
    func add(
        _ photos: [PhotoToSend], to productID: String, progress: @escaping @Sendable (PhotoUploadProgress) -> Void
    ) async -> Outcome {
        var outcome = Outcome(product: nil, problems: [])
        for (index, photo) in photos.enumerated() {
            let number = index + 1
            progress(PhotoUploadProgress(number: number, count: photos.count, fraction: 0))
            let report: ProgressHandler = { transfer in
                guard transfer.direction == .upload, let fraction = transfer.fractionCompleted else { return }
                progress(PhotoUploadProgress(number: number, count: photos.count, fraction: fraction))
            }
            do throws(NetworkError) {
                outcome.product = try await network.request(
                    BazaarEndpoints.addProductPhoto(
                        productId: productID, image: photo.data, mediaType: photo.mediaType),
                    progress: report)
            } catch {
                let reason = ScreenError(error).message
                guard error.statusCode.map({ (400..<500).contains($0) && $0 != 401 && $0 != 429 }) == true else {
                    let left = photos.count - index
                    outcome.problems.append(
                        left == 1
                            ? "Photo \(number) was not added: \(reason)"
                            : "Photos \(number) to \(photos.count) were not added: \(reason)")
                    return outcome
                }
                outcome.problems.append("Photo \(number) was not added: \(reason)")
            }
        }
        return outcome
    }
}
