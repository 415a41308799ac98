import BazaarAPI
import Foundation

/// The formats the server takes.
public enum ImageFormat: Int, Sendable, Hashable {
    /// JPEG.
    case jpeg = 1
    /// PNG.
    case png = 2
    /// WebP.
    case webp = 3
}

/// What an image's header says.
public struct ImageHeader: Sendable, Equatable {
    /// Width in pixels, as stored (before the orientation is applied).
    public var width: Int
    /// Height in pixels, as stored.
    public var height: Int
    /// The EXIF orientation, 1 to 8.
    public var orientation: Int
    /// Whether it has an alpha channel.
    public var hasAlpha: Bool
    /// Its format.
    public var format: ImageFormat
}

/// One size of a photo, encoded.
public struct EncodedImage: Sendable, Equatable {
    /// The bytes.
    public var data: Data
    /// Width in pixels, as shown (the orientation applied).
    public var width: Int
    /// Height in pixels, as shown.
    public var height: Int
    /// `image/jpeg` or `image/webp`.
    public var mediaType: String
}

/// Why an image was refused.
public enum ImageError: Error, Sendable, Equatable {
    /// Not a JPEG, PNG or WebP image, or it does not decode: what the library said.
    case notAnImage(String)
    /// It declares more pixels than ``ImagePipeline/maximumPixels``; nothing was decoded.
    case tooLarge(width: Int, height: Int)
    /// Decoding it took longer than ``ImagePipeline/decodeTimeLimit``; it was given up.
    case tookTooLong
    /// libvips could not be started in this process.
    case libraryUnavailable
    /// The server is processing as many photos as it processes at once; nothing was done. Try
    /// again after a moment.
    case busy
}
