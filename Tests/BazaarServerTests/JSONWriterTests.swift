import BazaarAPI
import Foundation
import NIOCore
import Testing

@testable import BazaarServer

/// `JSONWriter` writes exactly the bytes `BazaarJSON.makeEncoder()` writes for the same value.
@Suite("JSONWriter")
struct JSONWriterTests {
    /// Characters a message body may hold that JSON treats specially or that are easy to get
    /// wrong: every control character, quote, backslash, slash, DEL, non-ASCII letters, CJK,
    /// an emoji with a skin tone, U+2028/U+2029 and a byte-order mark.
    static let awkward: [Character] =
        (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }
        + [
            "\"", "\\", "/", "\u{7F}", "é", "ß", "中", "👍🏽", "\u{2028}", "\u{2029}", "\u{FEFF}", "\r\n", " ", "a", "Z",
            "0",
        ]

    static func randomText(using generator: inout some RandomNumberGenerator) -> String {
        let length = Int.random(in: 0...40, using: &generator)
        return String(
            (0..<length).map { _ in
                Bool.random(using: &generator)
                    ? awkward.randomElement(using: &generator) ?? "a"
                    : Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &generator)))
            })
    }

    static func randomMessage(using generator: inout some RandomNumberGenerator) -> Message {
        Message(
            id: randomText(using: &generator), conversationId: UUID().uuidString.lowercased(),
            senderId: randomText(using: &generator), body: randomText(using: &generator),
            createdAt: Date(
                timeIntervalSince1970: Double.random(in: -62_135_596_800...253_402_300_799, using: &generator)),
            // Half are offer lines, with the offer they tell of.
            kind: Bool.random(using: &generator) ? .offer : .text,
            offerId: Bool.random(using: &generator) ? randomText(using: &generator) : nil,
            // Some carry photos, some of unknown size.
            attachments: (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                Photo(
                    id: randomText(using: &generator), width: Bool.random(using: &generator) ? 1200 : nil,
                    height: Bool.random(using: &generator) ? 900 : nil,
                    fullURL: "/v1/x/" + randomText(using: &generator))
            })
    }

    static func written(_ value: some JSONWritable) -> String {
        var writer = JSONWriter(capacity: 16)  // too small on purpose: the buffer must grow
        value.write(to: &writer)
        return String(buffer: writer.buffer)
    }

    static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try BazaarJSON.makeEncoder().encode(value), as: UTF8.self)
    }

    @Test("a message with awkward text is written byte for byte as the encoder writes it")
    func messagesMatchTheEncoder() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {  // new random messages each run
            let message = Self.randomMessage(using: &generator)
            #expect(Self.written(message) == (try Self.encoded(message)), "\(message)")
        }
    }

    @Test("pages of messages match the encoder, empty pages and a null cursor included")
    func pagesMatchTheEncoder() throws {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 50] {
            let items = (0..<count).map { _ in Self.randomMessage(using: &generator) }
            for cursor in [nil, "bWVzc2FnZXM6MTIz", "a\"b\\c"] {
                let page = Page(items: items, nextCursor: cursor)
                #expect(Self.written(page) == (try Self.encoded(page)))
            }
        }
    }

    @Test("control characters are escaped as JSON requires, and the result decodes to the same message")
    func escapesRoundTrip() throws {
        let message = Message(
            id: "m", conversationId: "c", senderId: "s", body: "tab\there \"quoted\" back\\slash a/b \u{01}\u{1F}\n",
            createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        let text = Self.written(message)
        #expect(text.contains(#"tab\there \"quoted\" back\\slash a/b \u0001\u001f\n"#))
        #expect(try BazaarJSON.makeDecoder().decode(Message.self, from: Data(text.utf8)) == message)
    }
}
