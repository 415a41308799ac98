import Foundation

/// A `multipart/form-data` body as a browser sends a form with file inputs: its text fields and
/// its files, each part once, in order.
struct MultipartForm: Sendable {
    /// One part of the body.
    struct Part: Sendable {
        /// The form field's name.
        var name: String
        /// The file's name as the browser gave it; `nil` for a text field.
        var filename: String?
        /// The part's content.
        var bytes: Data
    }

    /// Every part, in the order the browser sent them.
    var parts: [Part]

    /// Parses `body`, whose `Content-Type` header is `contentType`; `nil` when it is not multipart
    /// or has no boundary.
    init?(body: Data, contentType: String) {
        guard contentType.lowercased().hasPrefix("multipart/form-data"),
            let boundaryRange = contentType.range(of: "boundary=")
        else { return nil }
        var boundary = String(contentType[boundaryRange.upperBound...])
        if let end = boundary.firstIndex(of: ";") { boundary = String(boundary[..<end]) }
        boundary = boundary.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        guard !boundary.isEmpty else { return nil }
        let delimiter = Data("--\(boundary)".utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        parts = []
        var cursor = body.startIndex
        while let start = body.range(of: delimiter, in: cursor..<body.endIndex) {
            let partStart = start.upperBound
            guard let next = body.range(of: delimiter, in: partStart..<body.endIndex) else { break }
            let part = body[partStart..<next.lowerBound]
            if let split = part.range(of: headerEnd) {
                let headers = String(decoding: part[part.startIndex..<split.lowerBound], as: UTF8.self)
                if let name = Self.parameter("name", in: headers) {
                    var content = part[split.upperBound...]
                    // The part ends with the CRLF before the next delimiter.
                    if content.suffix(2) == Data("\r\n".utf8) { content = content.dropLast(2) }
                    parts.append(
                        Part(name: name, filename: Self.parameter("filename", in: headers), bytes: Data(content)))
                }
            }
            cursor = next.lowerBound
        }
    }

    /// The files chosen in the input named `field`, in order; an input left empty sends a part
    /// with no name and no bytes, which is not a file.
    func files(named field: String) -> [Data] {
        parts.filter { $0.name == field && $0.filename != nil && !$0.bytes.isEmpty }.map(\.bytes)
    }

    /// The text fields, in order, as name and value.
    var fields: [(name: String, value: String)] {
        parts.filter { $0.filename == nil }.map { ($0.name, String(decoding: $0.bytes, as: UTF8.self)) }
    }

    /// The value of `name="…"` in a part's `Content-Disposition` header.
    private static func parameter(_ name: String, in headers: String) -> String? {
        for line in headers.split(separator: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
            for item in line.split(separator: ";") {
                let pair = item.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].lowercased() == name else { continue }
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }
}
