import Foundation

/// Opaque list cursors: a kind letter and a position, base64url-encoded.
///
/// Anything that does not decode to a cursor of the expected kind is a 400, never a 500.
enum Cursor {
    /// The lists that page.
    enum Kind: String {
        case products = "p"
        case messages = "m"
        case notifications = "n"
        case conversations = "c"
    }

    /// Encodes a sequence-number position.
    static func encode(_ kind: Kind, seq: Int64) -> String {
        base64url("v1:\(kind.rawValue):\(seq)")
    }

    /// Encodes a conversation-list position.
    static func encode(_ position: ConversationPosition) -> String {
        base64url("v1:\(Kind.conversations.rawValue):\(position.updatedAtMillis):\(position.id)")
    }

    /// Decodes a sequence-number cursor of the kind; throws 400 otherwise.
    static func decodeSeq(_ text: String?, kind: Kind) throws -> Int64? {
        guard let text else { return nil }
        let parts = try fields(text, kind: kind)
        guard parts.count == 3, let seq = Int64(parts[2]), seq > 0 else { throw invalid }
        return seq
    }

    /// Decodes a conversation-list cursor; throws 400 otherwise.
    static func decodeConversation(_ text: String?) throws -> ConversationPosition? {
        guard let text else { return nil }
        let parts = try fields(text, kind: .conversations)
        guard parts.count >= 4, let millis = Int64(parts[2]) else { throw invalid }
        return ConversationPosition(updatedAtMillis: millis, id: parts[3...].joined(separator: ":"))
    }

    private static var invalid: APIError { .badRequest("invalid_cursor", "The cursor is not one this server issued.") }

    private static func fields(_ text: String, kind: Kind) throws -> [String] {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard text.count <= 512, let data = Data(base64Encoded: base64), let decoded = String(data: data, encoding: .utf8)
        else { throw invalid }
        let parts = decoded.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts[0] == "v1", parts[1] == kind.rawValue else { throw invalid }
        return parts
    }

    private static func base64url(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
