import BazaarStorage
import Foundation
import Hummingbird

/// An image uploaded as a request body: `image/jpeg`, `image/png` or `image/webp`, declared by
/// `Content-Type` and confirmed by the bytes themselves, at most ``RequestBody/photoLimit``.
enum UploadedImage {
    /// The media types a photo may have.
    static let accepted = ["image/jpeg", "image/png", "image/webp"]

    /// Reads the body as a photo uploaded at `now` (415 when the declared type or the content is
    /// not one of ``accepted``, 413 when too large).
    static func read(_ request: Request, now: Date) async throws -> StoredPhoto {
        let declared = request.headers[.contentType].map(RequestBody.mediaTypeOnly)
        guard let declared, accepted.contains(declared) else {
            throw APIError.unsupportedMediaType("image/jpeg, image/png or image/webp")
        }
        let data = try await RequestBody.bytes(of: request, limit: RequestBody.photoLimit)
        guard let actual = ImageSniffer.mediaType(of: data) else {
            throw APIError.unsupportedMediaType("a JPEG, PNG or WebP image (the content is not one)")
        }
        return StoredPhoto(mediaType: actual, data: data, updatedAt: now)
    }

    /// The answer serving `photo`: strong `ETag`, and 304 when the request already holds it.
    static func response(_ photo: StoredPhoto, request: Request, cacheControl: String) -> Response {
        var headers = HTTPFields()
        let etag = "\"\(photo.digest.prefix(32))\""
        headers[.eTag] = etag
        headers[.cacheControl] = cacheControl
        if HTTPCaching.matches(request, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = photo.mediaType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: photo.data)))
    }
}
