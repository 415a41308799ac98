import Foundation

extension MediaType {
    /// The image type the first bytes of `bytes` say (JPEG, PNG or WebP, the types Bazaar takes),
    /// whatever a file name or a header claims; `nil` for anything else.
    public static func image(sniffing bytes: Data) -> MediaType? {
        let head = [UInt8](bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return nil
    }
}
