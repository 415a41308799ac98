import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import Networking
import TerminalUI

/// Reads an image for upload and tells its media type from its first bytes (not its name).
enum ImageFile {
    /// The bytes and media type of the JPEG, PNG or WebP at `path`.
    static func read(_ path: String) throws(AppError) -> (Data, MediaType) {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw AppError(.usage, "cannot read \(path): \(error.localizedDescription)")
        }
        guard let mediaType = mediaType(of: bytes) else {
            throw AppError(.usage, "\(path) is not a JPEG, PNG or WebP image")
        }
        return (bytes, mediaType)
    }

    /// The photos at `paths`, in order, each read and checked before anything is sent.
    static func photos(_ paths: [String]) throws(AppError) -> [PhotoToSend] {
        var photos: [PhotoToSend] = []
        for path in paths {
            let (bytes, mediaType) = try read(path)
            photos.append(PhotoToSend(data: bytes, mediaType: mediaType))
        }
        return photos
    }

    /// The media type the magic bytes say, if it is one the server takes.
    static func mediaType(of bytes: Data) -> MediaType? {
        MediaType.image(sniffing: bytes)
    }
}
