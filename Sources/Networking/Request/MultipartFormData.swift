import Foundation
import Synchronization

/// A `multipart/form-data` body (RFC 7578): text fields and files, files streamed from disk.
///
/// The encoded length is known before sending (file sizes are read up front), so the request gets
/// a `Content-Length` and upload progress has a total.
public struct MultipartFormData: Sendable {
    /// Where a part's bytes come from.
    public enum Content: Sendable {
        /// Bytes in memory.
        case data(Data)
        /// A file read in chunks while sending.
        case file(URL)
    }

    /// One part of the form.
    public struct Part: Sendable {
        /// The form field name.
        public var name: String
        /// The file name sent with a file part, if any.
        public var filename: String?
        /// The part's media type; text fields usually have none.
        public var mediaType: MediaType?
        /// The part's bytes.
        public var content: Content
    }

    /// The boundary between parts; random unless given.
    public let boundary: String
    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// Makes an empty form; pass a fixed `boundary` only when output must be byte-for-byte stable.
    public init(boundary: String = "bazaar-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()) {
        self.boundary = boundary
    }

    /// The `Content-Type` for this form, with its boundary.
    public var mediaType: MediaType { .multipartFormData(boundary: boundary) }

    /// Adds a text field.
    public mutating func append(_ value: String, name: String) {
        parts.append(Part(name: name, filename: nil, mediaType: nil, content: .data(Data(value.utf8))))
    }

    /// Adds bytes as a file part.
    public mutating func append(_ data: Data, name: String, filename: String, mediaType: MediaType = .octetStream) {
        parts.append(Part(name: name, filename: filename, mediaType: mediaType, content: .data(data)))
    }

    /// Adds a file from disk, read in chunks when the body is sent.
    public mutating func appendFile(
        at url: URL, name: String, filename: String? = nil, mediaType: MediaType = .octetStream
    ) {
        parts.append(
            Part(name: name, filename: filename ?? url.lastPathComponent, mediaType: mediaType, content: .file(url)))
    }

    /// Encodes the form as a body of known length.
    ///
    /// - Throws: ``RequestBuildError/unreadableFile(path:reason:)`` when a file part cannot be read.
    public func encoded() throws(RequestBuildError) -> HTTPBody {
        var segments: [Content] = []
        var length: Int64 = 0
        var hasFile = false
        for part in parts {
            let head = Data(header(for: part).utf8)
            segments.append(.data(head))
            length += Int64(head.count)
            switch part.content {
            case .data(let data):
                length += Int64(data.count)
            case .file(let url):
                hasFile = true
                do {
                    length += try FileChunks.size(of: url)
                } catch {
                    throw .unreadableFile(path: url.path, reason: error.localizedDescription)
                }
            }
            segments.append(part.content)
            segments.append(.data(Data("\r\n".utf8)))
            length += 2
        }
        let closing = Data("--\(boundary)--\r\n".utf8)
        segments.append(.data(closing))
        length += Int64(closing.count)

        guard hasFile else {
            var data = Data(capacity: Int(length))
            for case .data(let bytes) in segments { data.append(bytes) }
            return .bytes(data)
        }
        let finalSegments = segments
        return .stream(length: length) {
            let reader = SegmentReader(segments: finalSegments)
            return AsyncThrowingStream(unfolding: { try reader.next() })
        }
    }

    private func header(for part: Part) -> String {
        var header = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escape(part.name))\""
        if let filename = part.filename {
            header += "; filename=\"\(Self.escape(filename))\""
        }
        header += "\r\n"
        if let mediaType = part.mediaType {
            header += "Content-Type: \(mediaType.rawValue)\r\n"
        }
        return header + "\r\n"
    }

    /// Escapes a name as the HTML standard does for form data: `"` → `%22`, CR → `%0D`, LF → `%0A`.
    static func escape(_ name: String) -> String {
        var escaped = ""
        for character in name.unicodeScalars {
            switch character {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}

/// Pulls a form's segments one chunk at a time, opening each file only when its turn comes.
///
/// Pulling (rather than pushing into a buffer) keeps memory flat for large files: a chunk is read
/// only when the transport asks for the next one.
private final class SegmentReader: Sendable {
    private struct State {
        var index = 0
        var file: FileChunks.Reader?
    }

    private let segments: [MultipartFormData.Content]
    private let state = Mutex(State())

    init(segments: [MultipartFormData.Content]) {
        self.segments = segments
    }

    func next() throws -> Data? {
        try state.withLock { state in
            while state.index < segments.count {
                switch segments[state.index] {
                case .data(let bytes):
                    state.index += 1
                    return bytes
                case .file(let url):
                    let reader = state.file ?? FileChunks.Reader(url: url)
                    state.file = reader
                    if let chunk = try reader.next() { return chunk }
                    state.file = nil
                    state.index += 1
                }
            }
            return nil
        }
    }

    deinit {
        state.withLock { $0.file?.close() }
    }
}
