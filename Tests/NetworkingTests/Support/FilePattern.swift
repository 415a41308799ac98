import Foundation

/// The bytes of the test server's `/file/{name}` route: a 64 KiB block that depends on the
/// file's version, repeated, so a body of any size costs the server nothing to make and a test
/// knows every byte.
enum FilePattern {
    static let blockSize = 1 << 16

    /// One block of version `version`.
    static func block(version: Int) -> [UInt8] {
        (0..<blockSize).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 8) &+ version &* 101) }
    }

    /// The whole file of `size` bytes.
    static func bytes(size: Int, version: Int) -> Data {
        let block = block(version: version)
        var data = Data(capacity: size)
        while data.count < size { data.append(contentsOf: block.prefix(size - data.count)) }
        return data
    }
}
