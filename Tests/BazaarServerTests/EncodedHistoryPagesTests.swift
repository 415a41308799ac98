import BazaarAPI
import BazaarStorage
import Foundation
import NIOCore
import Testing

@testable import BazaarServer

/// The kept bytes of newest history pages are always the bytes of the page asked about.
@Suite("EncodedHistoryPages")
struct EncodedHistoryPagesTests {
    private static func message(_ id: String, body: String? = nil, removed: Bool = false) -> Message {
        Message(
            id: id, conversationId: "c1", senderId: "ada", body: body ?? id,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000), removed: removed)
    }

    private static func decoded(_ body: ByteBuffer) throws -> Page<Message> {
        try BazaarJSON.makeDecoder().decode(Page<Message>.self, from: Data(body.readableBytesView))
    }

    /// Where a buffer's bytes live: two answers sharing one storage were encoded once.
    private static func storage(of body: ByteBuffer) -> UnsafeRawPointer? {
        body.withUnsafeReadableBytes { UnsafeRawPointer($0.baseAddress) }
    }

    @Test("the bytes are the encoder's, page and cursor alike")
    func bytesAreTheEncoders() throws {
        let pages = EncodedHistoryPages()
        let slice = Slice(items: [Self.message("m2"), Self.message("m1")], next: 1)
        let body = pages.body(of: slice, conversationId: "c1", limit: 2)
        let expected = try BazaarJSON.makeEncoder().encode(
            Page(items: slice.items, nextCursor: Cursor.encode(.messages, seq: 1)))
        #expect(Data(body.readableBytesView) == expected)
    }

    @Test("the same page again is answered with the bytes kept, not encoded again")
    func theSamePageReusesItsBytes() {
        let pages = EncodedHistoryPages()
        let slice = Slice(items: [Self.message("m2"), Self.message("m1")], next: nil)
        let first = pages.body(of: slice, conversationId: "c1", limit: 50)
        let again = pages.body(of: slice, conversationId: "c1", limit: 50)
        #expect(Self.storage(of: first) == Self.storage(of: again))
        #expect(pages.count == 1)
    }

    @Test("a message changed in place (removed by a moderator) is encoded anew, though its id is the same")
    func aChangedMessageIsEncodedAgain() throws {
        let pages = EncodedHistoryPages()
        _ = pages.body(of: Slice(items: [Self.message("m1")], next: nil), conversationId: "c1", limit: 50)
        let removed = Self.message("m1", body: Message.removedBody, removed: true)
        let body = pages.body(of: Slice(items: [removed], next: nil), conversationId: "c1", limit: 50)
        #expect(try Self.decoded(body).items == [removed])
    }

    @Test("a page that now says older messages follow gets its cursor")
    func aNewCursorIsEncodedAgain() throws {
        let pages = EncodedHistoryPages()
        let items = [Self.message("m2"), Self.message("m1")]
        _ = pages.body(of: Slice(items: items, next: nil), conversationId: "c1", limit: 2)
        let body = pages.body(of: Slice(items: items, next: 1), conversationId: "c1", limit: 2)
        #expect(try Self.decoded(body).nextCursor == Cursor.encode(.messages, seq: 1))
    }

    @Test("pages of other sizes and other conversations are kept apart")
    func pagesAreKeptApart() throws {
        let pages = EncodedHistoryPages()
        let short = Slice(items: [Self.message("m2")], next: 2)
        let long = Slice(items: [Self.message("m2"), Self.message("m1")], next: nil)
        _ = pages.body(of: short, conversationId: "c1", limit: 1)
        _ = pages.body(of: long, conversationId: "c2", limit: 2)
        #expect(try Self.decoded(pages.body(of: long, conversationId: "c1", limit: 2)).items.count == 2)
        #expect(try Self.decoded(pages.body(of: short, conversationId: "c1", limit: 1)).items.count == 1)
        #expect(pages.count == 3)
    }

    @Test("full, it starts over instead of growing; a page too large for it is answered but not kept")
    func boundsMemory() {
        let pages = EncodedHistoryPages(capacity: 2, maximumBytes: 4_000)
        for conversation in ["c1", "c2", "c3"] {
            _ = pages.body(of: Slice(items: [Self.message("m1")], next: nil), conversationId: conversation, limit: 50)
        }
        #expect(pages.count == 1)
        let large = Self.message("big", body: String(repeating: "x", count: 2_000))
        let body = pages.body(of: Slice(items: [large], next: nil), conversationId: "c4", limit: 50)
        #expect(body.readableBytes > 1_000)
        #expect(pages.count == 1)
    }

    @Test("a page is weighed with the messages kept to compare it, not by its bytes alone")
    func theKeptMessagesCount() {
        // 1 600 bytes may be kept per page: the body of about 1 200 fits, with its message not.
        let pages = EncodedHistoryPages(capacity: 8, maximumBytes: 6_400)
        let message = Self.message("m1", body: String(repeating: "x", count: 1_000))
        let body = pages.body(of: Slice(items: [message], next: nil), conversationId: "c1", limit: 50)
        #expect(body.readableBytes < 1_600)
        #expect(pages.count == 0)
    }
}
