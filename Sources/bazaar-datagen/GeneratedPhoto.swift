import Foundation

/// Real PNG images for generated listings: a small two-colour gradient, a few hundred bytes, so
/// that photos of a million listings stay a modest share of the database yet every browser and
/// the server's content check take them for what they are.
enum GeneratedPhoto {
    /// Pixels across and down.
    static let width = 12, height = 9

    /// A PNG fading from `start` at the top left to `end` at the bottom right (RGB each).
    static func png(from start: [UInt8], to end: [UInt8]) -> Data {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(height * (1 + 3 * width))
        for y in 0..<height {
            pixels.append(0)  // filter: none
            for x in 0..<width {
                let share = Double(x + y) / Double(width + height - 2)
                for channel in 0..<3 {
                    pixels.append(UInt8(Double(start[channel]) * (1 - share) + Double(end[channel]) * share))
                }
            }
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits per channel, RGB, deflate, no filter method, no interlace
        append(chunk: "IHDR", header, to: &png)
        append(chunk: "IDAT", zlibStored(pixels), to: &png)
        append(chunk: "IEND", [], to: &png)
        return png
    }

    /// One chunk: length, type, data and the CRC of type and data.
    private static func append(chunk type: String, _ data: [UInt8], to png: inout Data) {
        let typed = Array(type.utf8) + data
        png.append(contentsOf: bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed)))
    }

    /// `bytes` as a zlib stream of stored (uncompressed) deflate blocks: valid, and small enough
    /// for images this size that compressing them would not be worth a dependency.
    private static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let last: UInt8 = offset + count == bytes.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += bytes[offset..<offset + count]
            offset += count
        } while offset < bytes.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
