import Foundation

/// A made-up profile photo for the demo: a PNG signature and header followed by filler, large
/// enough (about 1.5 MiB) that the upload's progress bar has something to show.
enum DemoImage {
    static func png(bytes count: Int = 1_536_000) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        data.append(contentsOf: [0x00, 0x00, 0x00, 0x0D] + Array("IHDR".utf8))
        data.append(contentsOf: [0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0x02, 0x00, 0x00, 0x00])
        data.append(Data(count: max(count - data.count, 0)))
        return data
    }
}
