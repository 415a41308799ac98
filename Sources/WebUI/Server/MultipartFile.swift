import Foundation

/// The first file in a `multipart/form-data` body under a given field name: what a browser's
/// file input sends.
struct MultipartFile: Sendable {
    /// The file's bytes.
    var bytes: Data

    /// Finds the part named `field` in `body`, whose `Content-Type` header is `contentType`;
    /// `nil` when the body is not multipart or has no such part.
    init?(field: String, in body: Data, contentType: String) {
        guard let boundaryRange = contentType.range(of: "boundary=") else { return nil }
        var boundary = String(contentType[boundaryRange.upperBound...])
        if let end = boundary.firstIndex(of: ";") { boundary = String(boundary[..<end]) }
        boundary = boundary.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        guard !boundary.isEmpty else { return nil }
        let delimiter = Data("--\(boundary)".utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        var cursor = body.startIndex
        while let start = body.range(of: delimiter, in: cursor..<body.endIndex) {
            let partStart = start.upperBound
            guard let next = body.range(of: delimiter, in: partStart..<body.endIndex) else { return nil }
            let part = body[partStart..<next.lowerBound]
            if let split = part.range(of: headerEnd) {
                let headers = String(decoding: part[part.startIndex..<split.lowerBound], as: UTF8.self)
                if headers.contains("name=\"\(field)\"") {
                    var content = part[split.upperBound...]
                    // The part ends with the CRLF before the next delimiter.
                    if content.suffix(2) == Data("\r\n".utf8) { content = content.dropLast(2) }
                    bytes = Data(content)
                    return
                }
            }
            cursor = next.lowerBound
        }
        return nil
    }
}
