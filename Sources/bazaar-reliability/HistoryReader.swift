import BazaarAPI
import Networking
import Session

/// Reads a conversation's whole history through the kit, page by page with the `?before=` cursor.
struct HistoryReader: Sendable {
    /// A member of the conversations read.
    let network: AuthenticatedNetworkController
    /// Messages per page; small, so the bounded run crosses several page boundaries.
    var pageSize = 25

    /// Every message of the conversation, newest first, and how many pages that took.
    ///
    /// - Throws: ``ReliabilityFailure`` when the cursors go round in a circle; the kit's error when
    ///   a page cannot be read.
    func messages(in conversationID: String) async throws -> (messages: [Message], pages: Int) {
        var messages: [Message] = []
        var cursor: String?
        var seenCursors: Set<String> = []
        var pages = 0
        repeat {
            let page = try await network.request(
                BazaarEndpoints.messages(conversationID: conversationID, before: cursor, limit: pageSize))
            pages += 1
            messages += page.items
            cursor = page.nextCursor
            if let cursor, !seenCursors.insert(cursor).inserted {
                throw ReliabilityFailure("the history of \(conversationID) returned the cursor \(cursor) twice")
            }
        } while cursor != nil
        return (messages, pages)
    }
}
