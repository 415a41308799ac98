import BazaarImages
import Foundation

/// Real images for tests, made by the project's own image pipeline (libvips): the server decodes
/// every upload, so a test that uploads a photo uploads one that decodes.
public enum TestImages {
    /// A JPEG of `width` × `height`; `grain` makes it larger (see `ImagePipeline.picture`).
    public static func jpeg(width: Int = 640, height: Int = 480, grain: Double = 0) -> Data {
        picture(width: width, height: height, format: .jpeg, grain: grain)
    }

    /// A PNG of `width` × `height`; `grain` makes it larger.
    public static func png(width: Int = 320, height: Int = 240, grain: Double = 0) -> Data {
        picture(width: width, height: height, format: .png, grain: grain)
    }

    /// A WebP of `width` × `height`.
    public static func webp(width: Int = 320, height: Int = 240) -> Data {
        picture(width: width, height: height, format: .webp, grain: 0)
    }

    /// A JPEG carrying what a phone camera writes: EXIF with `orientation`, a GPS block and the
    /// description `secret`, and an XMP packet naming `secret` too.
    public static func jpegWithMetadata(
        width: Int = 1200, height: Int = 800, orientation: UInt16 = 1, secret: String = "HOME-AT-48.8584N-2.2945E"
    ) -> Data {
        JPEGMetadata.inserting(
            exif: JPEGMetadata.exif(orientation: orientation, description: secret),
            xmp: "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\(secret)-XMP</x:xmpmeta>",
            into: jpeg(width: width, height: height))
    }

    private static func picture(width: Int, height: Int, format: ImageFormat, grain: Double) -> Data {
        do {
            return try ImagePipeline().picture(width: width, height: height, format: format, grain: grain)
        } catch {
            // libvips is a requirement of the test run (scripts/install-image-library.sh).
            fatalError("cannot make a test image: \(error)")
        }
    }
}

/// Builds the metadata blocks a camera writes, by hand, into a JPEG.
public enum JPEGMetadata {
    /// A big-endian TIFF/EXIF block with the orientation, an image description and a GPS IFD
    /// holding a latitude reference.
    public static func exif(orientation: UInt16, description: String) -> Data {
        var text = Array(description.utf8) + [0]
        if text.count % 2 == 1 { text.append(0) }
        var tiff = Data("MM".utf8) + be16(42) + be32(8)
        // IFD0: three entries, then the next-IFD offset; the description and the GPS IFD follow it.
        let ifd0Size = 2 + 3 * 12 + 4
        let descriptionOffset = 8 + ifd0Size
        let gpsOffset = descriptionOffset + text.count
        tiff += be16(3)
        tiff += be16(0x010E) + be16(2) + be32(UInt32(text.count)) + be32(UInt32(descriptionOffset))
        tiff += be16(0x0112) + be16(3) + be32(1) + be16(orientation) + be16(0)
        tiff += be16(0x8825) + be16(4) + be32(1) + be32(UInt32(gpsOffset))
        tiff += be32(0)
        tiff += Data(text)
        tiff += be16(1) + be16(0x0001) + be16(2) + be32(2) + Data("N".utf8) + Data([0, 0, 0]) + be32(0)
        return Data("Exif".utf8) + Data([0, 0]) + tiff
    }

    /// `jpeg` with an APP1 EXIF segment and an APP1 XMP segment right after its start marker.
    public static func inserting(exif: Data, xmp: String?, into jpeg: Data) -> Data {
        var segments = segment(0xE1, exif)
        if let xmp { segments += segment(0xE1, Data("http://ns.adobe.com/xap/1.0/".utf8) + Data([0]) + Data(xmp.utf8)) }
        return jpeg.prefix(2) + segments + jpeg.dropFirst(2)
    }

    /// The markers of the segments before the image data.
    public static func segments(of jpeg: Data) -> [UInt8] {
        let bytes = [UInt8](jpeg)
        var markers: [UInt8] = []
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] != 0xDA {
            markers.append(bytes[index + 1])
            index += 2 + Int(bytes[index + 2]) << 8 + Int(bytes[index + 3])
        }
        return markers
    }

    private static func segment(_ marker: UInt8, _ payload: Data) -> Data {
        Data([0xFF, marker]) + be16(UInt16(payload.count + 2)) + payload
    }

    public static func be16(_ value: UInt16) -> Data { Data([UInt8(value >> 8), UInt8(value & 0xFF)]) }
    public static func be32(_ value: UInt32) -> Data { be16(UInt16(value >> 16)) + be16(UInt16(value & 0xFFFF)) }
}

/// A PNG that is only its signature and header: what a decompression bomb shows before its data.
public enum PNGHeader {
    public static func declaring(width: UInt32, height: UInt32) -> Data {
        let header = Data("IHDR".utf8) + JPEGMetadata.be32(width) + JPEGMetadata.be32(height) + Data([8, 2, 0, 0, 0])
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + JPEGMetadata.be32(13) + header
            + JPEGMetadata.be32(crc32(header)) + JPEGMetadata.be32(0) + Data("IDAT".utf8)
            + JPEGMetadata.be32(crc32(Data("IDAT".utf8)))
    }

    public static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
