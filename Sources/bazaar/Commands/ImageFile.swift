import BazaarAPI
import ConsoleKitTerminal
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

    /// The media type the magic bytes say, if it is one the server takes.
    static func mediaType(of bytes: Data) -> MediaType? {
        let head = [UInt8](bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return nil
    }
}
