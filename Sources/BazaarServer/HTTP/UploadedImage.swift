import BazaarAPI
import BazaarDomain
import BazaarImages
import BazaarStorage
import Foundation
import Hummingbird

/// An image uploaded as a request body (a product's, a profile's or a chat's photo): declared
/// `image/jpeg`, `image/png` or `image/webp` by `Content-Type`, at most ``RequestBody/photoLimit``,
/// and turned by the ``PhotoProcessor`` into its sizes; what the client sent is never stored.
enum UploadedImage {
    /// The media types a photo may be declared as.
    static let accepted = ["image/jpeg", "image/png", "image/webp"]

    /// Reads the body: 415 when the declared type is not one of ``accepted``, 413 when too large.
    /// Nothing is decoded yet.
    static func body(of request: Request) async throws -> Data {
        let declared = request.headers[.contentType].map(RequestBody.mediaTypeOnly)
        guard let declared, accepted.contains(declared) else {
            throw APIError.unsupportedMediaType("image/jpeg, image/png or image/webp")
        }
        return try await RequestBody.bytes(of: request, limit: RequestBody.photoLimit)
    }

    /// The photo in `request`'s body, for `userId`: read (``body(of:)``), charged to the user's
    /// photo-upload quota before the decode (the costly part, so a refused image spends the quota
    /// too), then made into its sizes (``sizes(of:processor:now:)``). Every upload route takes its
    /// photo this way.
    static func receive(_ request: Request, chargedTo userId: String, deps: ServerDependencies) async throws
        -> PhotoSizes
    {
        let data = try await body(of: request)
        try deps.quotas.charge(.uploadPhoto, by: userId)
        return try await sizes(of: data, processor: deps.photos, now: deps.now())
    }

    /// Every size of the image in `data`, uploaded at `now`: 422 `invalid_image` for what is not
    /// a JPEG, PNG or WebP image that decodes (or declares more than 40 megapixels, or takes too
    /// long), 503 with `Retry-After` while the server processes as many photos as it may at once.
    static func sizes(of data: Data, processor: PhotoProcessor, now: Date) async throws -> PhotoSizes {
        do {
            return try PhotoSizes(try await processor.sizes(of: data), uploadedAt: now)
        } catch let error as ImageError {
            throw APIError(error)
        }
    }

    /// The `size` query parameter of a photo URL: `full` when absent, 400 when not a size.
    static func size(_ request: Request) throws -> PhotoSize {
        guard let text = QueryParameters.string(request, "size") else { return .full }
        guard let size = PhotoSize(rawValue: text) else {
            throw APIError.badRequest("invalid_query", "size must be thumb, medium or full")
        }
        return size
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
        headers[.acceptRanges] = "bytes"
        // Ranges, so an app resumes a download cut in the middle (the ETag makes `If-Range` safe).
        switch ByteRangeRequest(request, length: photo.data.count, etag: etag) {
        case .whole:
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: photo.data)))
        case .part(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(photo.data.count)"
            let start = photo.data.startIndex + range.lowerBound
            let part = photo.data[start..<(start + range.count)]
            return Response(status: .partialContent, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: part)))
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(photo.data.count)"
            headers[.contentType] = nil
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
    }
}

extension APIError {
    /// 422 `invalid_image`: the upload is not a photo the server takes.
    static func invalidImage(_ why: String) -> APIError {
        APIError(status: .unprocessableContent, code: "invalid_image", message: "The photo cannot be used: \(why).")
    }

    /// The answer to the image pipeline's refusal.
    init(_ error: ImageError) {
        switch error {
        case .notAnImage:
            self = .invalidImage("it is not a JPEG, PNG or WebP image that decodes")
        case .tooLarge(let width, let height):
            self = .invalidImage(
                "it declares \(width) × \(height) pixels, more than \(ImagePipeline.maximumPixels / 1_000_000) megapixels"
            )
        case .tookTooLong:
            self = .invalidImage("it takes too long to decode")
        case .busy:
            self = .unavailable("the server is processing as many photos as it can at once")
        case .libraryUnavailable:
            self = .unavailable("photos cannot be processed on this server now", retryAfter: 60)
        }
    }
}
