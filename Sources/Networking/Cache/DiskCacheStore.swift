import Foundation
import HTTPTypes
import Synchronization

/// Keeps cached responses as files in a folder so they survive a restart.
///
/// One file per entry, under one sub-folder per partition, so a partition is wiped by removing
/// its folder. Files are written atomically (a crash mid-write leaves the old entry or none), and
/// each file records its full key, so a hash collision reads as a miss, never as the wrong entry.
/// When the folder grows past `byteLimit`, the least recently written files are removed.
final class DiskCacheStore: Sendable {
    private let root: URL
    private let byteLimit: Int
    private let usage: Mutex<Int>

    private struct Record: Codable {
        var key: CacheKey
        var statusCode: Int
        var headers: [CachedResponse.Header]
        var requestDate: Date
        var responseDate: Date
        var varyValues: [String: String?]
    }

    /// Opens (creating if needed) a store in `folder`.
    init(folder: URL, byteLimit: Int) throws {
        root = folder
        self.byteLimit = byteLimit
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        usage = Mutex(Self.files(under: folder).reduce(0) { $0 + $1.size })
    }

    /// The stored entry for `key`, or `nil` when there is none or the file is unreadable.
    func entry(for key: CacheKey) -> CachedResponse? {
        guard let data = try? Data(contentsOf: fileURL(for: key)), data.count >= 4 else { return nil }
        let metaLength = data.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard data.count >= 4 + metaLength else { return nil }
        let metaStart = data.startIndex + 4
        let bodyStart = metaStart + metaLength
        guard let record = try? JSONDecoder().decode(Record.self, from: data[metaStart..<bodyStart]),
            record.key == key
        else { return nil }
        var entry = CachedResponse(
            response: TransportResponse(head: .init(status: .ok), body: Data(data[bodyStart...])),
            requestDate: record.requestDate, responseDate: record.responseDate, varyValues: record.varyValues)
        entry.statusCode = record.statusCode
        entry.headers = record.headers
        return entry
    }

    /// Writes `entry` for `key`, replacing what was there.
    func store(_ entry: CachedResponse, for key: CacheKey) {
        let record = Record(
            key: key, statusCode: entry.statusCode, headers: entry.headers, requestDate: entry.requestDate,
            responseDate: entry.responseDate, varyValues: entry.varyValues)
        guard let meta = try? JSONEncoder().encode(record) else { return }
        var data = Data(capacity: 4 + meta.count + entry.body.count)
        let length = UInt32(meta.count)
        data.append(contentsOf: [
            UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
        ])
        data.append(meta)
        data.append(entry.body)
        let url = fileURL(for: key)
        let previous = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            return
        }
        let total = usage.withLock { usage in
            usage += data.count - previous
            return usage
        }
        if total > byteLimit { trim() }
    }

    /// Removes the entry for `key`.
    func remove(_ key: CacheKey) {
        let url = fileURL(for: key)
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        if (try? FileManager.default.removeItem(at: url)) != nil {
            usage.withLock { $0 -= size }
        }
    }

    /// The header names a URL's responses vary on, as last stored.
    func varyNames(for base: CacheKey) -> [String]? {
        guard let data = try? Data(contentsOf: varyURL(for: base)) else { return nil }
        return try? JSONDecoder().decode([String].self, from: data)
    }

    /// Records the header names a URL's responses vary on.
    func storeVaryNames(_ names: [String], for base: CacheKey) {
        guard let data = try? JSONEncoder().encode(names) else { return }
        let url = varyURL(for: base)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: url, options: .atomic)
    }

    /// Removes every variant stored for a URL, and its vary record.
    func removeAllVariants(of base: CacheKey) {
        let folder = root.appendingPathComponent(Self.folderName(for: base.partition), isDirectory: true)
        let prefix = Self.hexHash(base.url)
        for file in Self.files(under: folder) where file.url.lastPathComponent.hasPrefix(prefix) {
            if (try? FileManager.default.removeItem(at: file.url)) != nil {
                usage.withLock { $0 -= file.size }
            }
        }
    }

    /// Removes every entry of one partition (`nil`: the shared one).
    func removeAll(partition: String?) {
        let folder = root.appendingPathComponent(Self.folderName(for: partition), isDirectory: true)
        let size = Self.files(under: folder).reduce(0) { $0 + $1.size }
        try? FileManager.default.removeItem(at: folder)
        usage.withLock { $0 = max(0, $0 - size) }
    }

    /// Removes every entry.
    func removeAll() {
        let contents = (try? FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)) ?? []
        for url in contents { try? FileManager.default.removeItem(at: url) }
        usage.withLock { $0 = 0 }
    }

    /// Deletes the oldest files until the folder is under 90% of its limit.
    private func trim() {
        var files = Self.files(under: root).sorted { $0.modified < $1.modified }
        var total = files.reduce(0) { $0 + $1.size }
        let target = byteLimit / 10 * 9
        while total > target, !files.isEmpty {
            let oldest = files.removeFirst()
            if (try? FileManager.default.removeItem(at: oldest.url)) != nil { total -= oldest.size }
        }
        usage.withLock { $0 = total }
    }

    private func fileURL(for key: CacheKey) -> URL {
        root.appendingPathComponent(Self.folderName(for: key.partition), isDirectory: true)
            .appendingPathComponent(Self.hexHash(key.url) + "-" + Self.hexHash(key.variant) + ".entry")
    }

    private func varyURL(for base: CacheKey) -> URL {
        root.appendingPathComponent(Self.folderName(for: base.partition), isDirectory: true)
            .appendingPathComponent(Self.hexHash(base.url) + ".vary")
    }

    private static func folderName(for partition: String?) -> String {
        partition.map { "p-" + hexHash($0) } ?? "shared"
    }

    /// FNV-1a, 64 bits, as hex: stable across runs and platforms (unlike `Hasher`).
    static func hexHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private static func files(under folder: URL) -> [(url: URL, size: Int, modified: Date)] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else {
            return []
        }
        var found: [(URL, Int, Date)] = []
        for case let url as URL in enumerator {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else {
                continue
            }
            found.append((url, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast))
        }
        return found
    }
}
