import BazaarAPI
import Foundation
import VipsShim

/// What becomes of every photo the server takes (a product's, a profile's, a chat's), decided
/// here once: the header is read first and anything over ``maximumPixels`` or not a JPEG, PNG or
/// WebP image is refused before a pixel is decoded; then libvips decodes it shrinking as it goes,
/// applies the EXIF orientation, and writes each ``PhotoSize`` without a single metadata block
/// (no EXIF, so no GPS position; no XMP; no ICC comment): JPEG, or WebP for an image with
/// transparency.
///
/// libvips is the library imgproxy and sharp are built on: it streams through an image in tiles
/// rather than holding it whole, and shrinks JPEGs while decoding them, so a 40-megapixel photo
/// costs tens of megabytes, not hundreds. It runs on the caller's thread; the server runs it off
/// the event loop, at most a bounded number at once.
public struct ImagePipeline: Sendable {
    /// The most pixels an upload may declare (40 megapixels, a large phone camera's photo).
    public static let maximumPixels = 40_000_000
    /// The quality JPEG and WebP sizes are written at.
    public static let quality = 82

    /// How long one size of one image may take to decode and encode before it is given up
    /// (``ImageError/tookTooLong``): a crafted image that decodes slowly holds a thread no longer.
    public let decodeTimeLimit: Duration

    /// A pipeline giving each size at most `decodeTimeLimit`; libvips is started once for the
    /// process, with one worker thread per image (the server's bound decides how many images at
    /// once) and no operation cache, so its memory is the images being worked on and nothing more.
    public init(decodeTimeLimit: Duration = .seconds(10)) throws(ImageError) {
        guard Self.started else { throw ImageError.libraryUnavailable }
        self.decodeTimeLimit = decodeTimeLimit
    }

    private static let started: Bool = bz_vips_start(1, 0) == 0

    /// What the header of `data` says, without decoding it.
    ///
    /// - Throws: ``ImageError/notAnImage(_:)`` for anything but a JPEG, PNG or WebP image whose
    ///   header reads, ``ImageError/tooLarge(width:height:)`` past ``maximumPixels``.
    public func header(of data: Data) throws(ImageError) -> ImageHeader {
        var header = bz_image_header()
        var error: UnsafeMutablePointer<CChar>?
        let status = data.withUnsafeBytes { bytes in
            bz_vips_header(bytes.baseAddress, bytes.count, &header, &error)
        }
        guard status == 0 else { throw ImageError.notAnImage(Self.take(error)) }
        let width = Int(header.width)
        let height = Int(header.height)
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).partialValue <= Self.maximumPixels,
            width <= Self.maximumPixels, height <= Self.maximumPixels
        else { throw ImageError.tooLarge(width: width, height: height) }
        return ImageHeader(
            width: width, height: height, orientation: Int(header.orientation), hasAlpha: header.has_alpha != 0,
            format: ImageFormat(rawValue: Int(header.format)) ?? .jpeg)
    }

    /// Every size of the photo in `data`: its header checked first (see ``header(of:)``). The
    /// upload is decoded once, for `full`; `medium` is made from `full` and `thumb` from `medium`,
    /// each a small decode of an image already oriented and stripped.
    public func sizes(of data: Data) throws(ImageError) -> [PhotoSize: EncodedImage] {
        _ = try header(of: data)
        let full = try resize(data, to: PhotoSize.full.longestSide)
        let medium = try resize(full.data, to: PhotoSize.medium.longestSide)
        let thumb = try resize(medium.data, to: PhotoSize.thumb.longestSide)
        return [.full: full, .medium: medium, .thumb: thumb]
    }

    /// The photo in `data` fit within `longestSide` × `longestSide`, oriented and stripped.
    public func resize(_ data: Data, to longestSide: Int) throws(ImageError) -> EncodedImage {
        var out: UnsafeMutableRawPointer?
        var length = 0
        var width: Int32 = 0
        var height: Int32 = 0
        var webp: Int32 = 0
        var error: UnsafeMutablePointer<CChar>?
        let seconds = Double(decodeTimeLimit.components.seconds) + Double(decodeTimeLimit.components.attoseconds) / 1e18
        let status = data.withUnsafeBytes { bytes in
            bz_vips_resize(
                bytes.baseAddress, bytes.count, Int32(longestSide), Int32(Self.quality), seconds, &out, &length,
                &width, &height, &webp, &error)
        }
        if status == -2 {
            _ = Self.take(error)
            throw ImageError.tookTooLong
        }
        guard status == 0, let out else { throw ImageError.notAnImage(Self.take(error)) }
        defer { bz_vips_free(out) }
        return EncodedImage(
            data: Data(bytes: out, count: length), width: Int(width), height: Int(height),
            mediaType: webp != 0 ? "image/webp" : "image/jpeg")
    }

    /// A made-up picture (bands of colour across it) of `width` × `height`, as JPEG, PNG or WebP: for
    /// tests and demo data, made by this project's own code. `grain` (a standard deviation, in
    /// levels of 0-255) adds noise as a camera's sensor does, which is what makes a photo's file
    /// large: about 5 MB for 3000 × 2000 at 40.
    public func picture(width: Int, height: Int, format: ImageFormat = .jpeg, grain: Double = 0) throws(ImageError)
        -> Data
    {
        var out: UnsafeMutableRawPointer?
        var length = 0
        var error: UnsafeMutablePointer<CChar>?
        guard
            bz_vips_test_image(Int32(width), Int32(height), Int32(format.rawValue), grain, &out, &length, &error)
                == 0,
            let out
        else { throw ImageError.notAnImage(Self.take(error)) }
        defer { bz_vips_free(out) }
        return Data(bytes: out, count: length)
    }

    /// The message of a C error string, freed.
    private static func take(_ error: UnsafeMutablePointer<CChar>?) -> String {
        guard let error else { return "the image cannot be read" }
        defer { bz_vips_free(error) }
        return String(cString: error).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
