import DemoPictures
import Foundation

/// Real PNG images for generated listings: a small two-colour gradient, a few hundred bytes, so
/// that photos of a million listings stay a modest share of the database yet every browser and
/// the server take them for what they are.
enum GeneratedPhoto {
    /// Pixels across and down.
    static let width = 12, height = 9

    /// A PNG fading from `start` at the top left to `end` at the bottom right (RGB each).
    static func png(from start: [UInt8], to end: [UInt8]) -> Data {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let share = Double(x + y) / Double(width + height - 2)
                for channel in 0..<3 {
                    pixels.append(UInt8(Double(start[channel]) * (1 - share) + Double(end[channel]) * share))
                }
            }
        }
        return Data(PNGEncoder.encode(width: width, height: height, rgb: pixels))
    }
}
