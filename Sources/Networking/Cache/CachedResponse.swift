import Foundation
import HTTPTypes

/// A stored response with what is needed to judge its freshness and to revalidate it.
public struct CachedResponse: Sendable, Codable, Equatable {
    /// The status code.
    public var statusCode: Int
    /// The header fields as name/value pairs, in order.
    public var headers: [Header] {
        didSet {
            headerFields = Self.fields(headers)
            judgement = Freshness.judge(self)
        }
    }
    /// The body.
    public var body: Data {
        didSet { decodedValues = DecodedValueMemo() }
    }
    /// When the request that fetched it was sent.
    public var requestDate: Date {
        didSet { judgement = Freshness.judge(self) }
    }
    /// When its response arrived.
    public var responseDate: Date {
        didSet { judgement = Freshness.judge(self) }
    }
    /// The request's values of the headers named in `Vary` (lower-cased names; `nil` if absent).
    public var varyValues: [String: String?]
    /// ``headers`` in swift-http-types form, built when they are set rather than on every cache hit
    /// (rebuilding them was the largest share of a hit's allocations).
    private(set) var headerFields: HTTPFields
    /// What a look-up needs to judge this entry, worked out when its headers or dates are set:
    /// parsing `Cache-Control`, `Date`, `Age` and `Expires` on every hit was a sixth of a hit's cost.
    private(set) var judgement = Judgement()
    /// The value last decoded from ``body``, shared by this entry's copies and the responses served
    /// from it; a new body (a new entry) starts a new memo, a `304` refresh keeps it.
    private(set) var decodedValues = DecodedValueMemo()

    /// An entry's parsed freshness inputs (RFC 9111 §4.2), see ``Freshness``.
    struct Judgement: Sendable, Equatable {
        /// The stored `Cache-Control` directives.
        var control = CacheControl(nil)
        /// Seconds the entry stays fresh.
        var lifetime: TimeInterval = 0
        /// Its age when it arrived (RFC 9111 §4.2.3's corrected initial age).
        var correctedInitialAge: TimeInterval = 0
        /// Whether it carries a validator (`ETag` or `Last-Modified`).
        var canRevalidate = false
    }

    private enum CodingKeys: String, CodingKey {
        case statusCode, headers, body, requestDate, responseDate, varyValues
    }

    /// One header field.
    public struct Header: Sendable, Codable, Equatable {
        /// The name as received.
        public var name: String
        /// The value.
        public var value: String
    }

    /// Makes an entry from a response and the times of its exchange.
    init(response: TransportResponse, requestDate: Date, responseDate: Date, varyValues: [String: String?]) {
        statusCode = response.status.code
        headers = response.headerFields.map { Header(name: $0.name.rawName, value: $0.value) }
        headerFields = Self.fields(headers)
        body = response.body
        self.requestDate = requestDate
        self.responseDate = responseDate
        self.varyValues = varyValues
        judgement = Freshness.judge(self)
    }

    /// Decodes an entry (the disk cache's format) and builds its header fields.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        statusCode = try container.decode(Int.self, forKey: .statusCode)
        headers = try container.decode([Header].self, forKey: .headers)
        body = try container.decode(Data.self, forKey: .body)
        requestDate = try container.decode(Date.self, forKey: .requestDate)
        responseDate = try container.decode(Date.self, forKey: .responseDate)
        varyValues = try container.decode([String: String?].self, forKey: .varyValues)
        headerFields = Self.fields(headers)
        judgement = Freshness.judge(self)
    }

    /// Header pairs in swift-http-types form (names that are not valid field names are dropped).
    private static func fields(_ headers: [Header]) -> HTTPFields {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for header in headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        return fields
    }

    /// The response to hand to a caller.
    var transportResponse: TransportResponse {
        TransportResponse(
            head: HTTPResponse(status: .init(code: statusCode), headerFields: headerFields), body: body,
            decodedValues: decodedValues)
    }

    /// The bytes this entry costs in memory, roughly: the body plus its headers.
    var cost: Int {
        headers.reduce(body.count + 64) { $0 + $1.name.utf8.count + $1.value.utf8.count + 16 }
    }

    /// The first value of the named header, case-insensitively.
    ///
    /// Header names are ASCII, so they are compared byte by byte: Foundation's
    /// `caseInsensitiveCompare` goes through CFString and was the cost of a cache hit.
    func value(of name: String) -> String? {
        headers.first { ASCII.equalIgnoringCase($0.name.utf8, name.utf8) }?.value
    }

    /// Replaces stored headers with those of a `304 Not Modified` (RFC 9111 §4.3.4), keeping the body.
    mutating func refresh(with notModified: HTTPFields, requestDate: Date, responseDate: Date) {
        let skipped: Set<String> = ["content-length", "content-encoding", "transfer-encoding"]
        var replacements: [String: [String]] = [:]
        var order: [String] = []
        for field in notModified where !skipped.contains(field.name.canonicalName) {
            let key = field.name.canonicalName
            if replacements[key] == nil { order.append(key) }
            replacements[key, default: []].append(field.value)
        }
        var kept = headers.filter { replacements[$0.name.lowercased()] == nil }
        for key in order {
            for value in replacements[key] ?? [] { kept.append(Header(name: key, value: value)) }
        }
        headers = kept
        self.requestDate = requestDate
        self.responseDate = responseDate
    }
}
