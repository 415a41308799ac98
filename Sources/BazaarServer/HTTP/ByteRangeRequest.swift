import Foundation
import Hummingbird

/// What a request's `Range` (and `If-Range`) asks of a body of known length and ETag (RFC 9110 §14):
/// the whole body, one part of it, or a part that does not exist.
///
/// One range only: a request for several (`bytes=0-1,5-6`) gets the whole body, as the RFC
/// allows, rather than a multipart answer no client of ours reads. An `If-Range` naming another
/// ETag (the body changed since the client's partial copy) also gets the whole body.
enum ByteRangeRequest: Equatable {
    /// Send the whole body (`200`).
    case whole
    /// Send these bytes (`206`, `Content-Range: bytes first-last/length`).
    case part(ClosedRange<Int>)
    /// No byte of the body is in the range (`416`, `Content-Range: bytes */length`).
    case unsatisfiable

    /// Reads `Range` and `If-Range` from `request` for a body of `length` bytes with `etag`.
    init(_ request: Request, length: Int, etag: String) {
        guard let header = request.headers[.range] else {
            self = .whole
            return
        }
        if let ifRange = request.headers[.ifRange], ifRange != etag {
            self = .whole
            return
        }
        self.init(header: header, length: length)
    }

    /// Reads a `Range` header's value for a body of `length` bytes; anything but one well-formed
    /// `bytes=` range is `.whole`.
    init(header: String, length: Int) {
        guard header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst(6).trimmingHTTPWhitespace
        let sides = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard sides.count == 2 else {
            self = .whole
            return
        }
        let first = Int(sides[0])
        let last = Int(sides[1])
        switch (sides[0].isEmpty, sides[1].isEmpty) {
        case (true, false):
            // `bytes=-N`: the last N bytes.
            guard let suffix = last else {
                self = .whole
                return
            }
            guard suffix > 0, length > 0 else {
                self = .unsatisfiable
                return
            }
            self = .part(max(0, length - suffix)...(length - 1))
        case (false, _):
            guard let first, first >= 0, sides[1].isEmpty || (last.map { $0 >= first } ?? false) else {
                self = .whole
                return
            }
            guard first < length else {
                self = .unsatisfiable
                return
            }
            self = .part(first...min(last ?? (length - 1), length - 1))
        case (true, true):
            self = .whole
        }
    }
}
