/// Writes RGB pixels as a PNG file, in plain Swift: zlib's stored (uncompressed) deflate blocks,
/// so no compression library is needed. The files are large (3 bytes a pixel), which suits what
/// they are for: demo and generated pictures the server decodes and re-encodes anyway.
public enum PNGEncoder {
    /// A PNG of `width` × `height` RGB pixels, `pixels` row by row (`width * height * 3` bytes).
    public static func encode(width: Int, height: Int, rgb pixels: [UInt8]) -> [UInt8] {
        precondition(pixels.count == width * height * 3, "one RGB triple per pixel")
        let stride = 1 + 3 * width
        // Each row behind its filter byte (0: none).
        let scanlines = [UInt8](unsafeUninitializedCapacity: height * stride) { buffer, count in
            pixels.withUnsafeBufferPointer { source in
                for row in 0..<height {
                    buffer[row * stride] = 0
                    let target = UnsafeMutableBufferPointer(rebasing: buffer[row * stride + 1..<(row + 1) * stride])
                    _ = target.initialize(from: source[row * width * 3..<(row + 1) * width * 3])
                }
            }
            count = height * stride
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits per channel, RGB, deflate, no filter method, no interlace
        append(chunk: "IHDR", header, to: &png)
        append(chunk: "IDAT", zlibStored(scanlines), to: &png)
        append(chunk: "IEND", [], to: &png)
        return png
    }

    /// One chunk: length, type, data and the CRC of type and data.
    private static func append(chunk type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typed = Array(type.utf8) + data
        png += bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    /// `bytes` as a zlib stream of stored deflate blocks.
    private static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(bytes.count + bytes.count / 65_535 * 5 + 16)
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let last: UInt8 = offset + count == bytes.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += bytes[offset..<offset + count]
            offset += count
        } while offset < bytes.count
        return out + bigEndian(adler32(bytes))
    }

    /// zlib's checksum, reduced once every 5 552 bytes (the most that cannot overflow 32 bits).
    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(start + 5_552, buffer.count)
                for index in start..<end {
                    a &+= UInt32(buffer[index])
                    b &+= a
                }
                a %= 65_521
                b %= 65_521
                start = end
            }
        }
        return b << 16 | a
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        crcTable.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { buffer in
                for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            }
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
