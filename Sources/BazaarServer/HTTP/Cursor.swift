import BazaarStorage

/// List cursors: a kind letter and a position, such as `p.42` (products after sequence number
/// 42) or `c.1763950000000.<conversation id>`. Clients treat them as opaque; `openapi.yaml` gives
/// each list's exact pattern, and anything else is a 400, never a 500.
enum Cursor {
    /// The lists that page.
    enum Kind: String {
        case products = "p"
        case productsByRelevance = "r"
        case productsByPriceAscending = "a"
        case productsByPriceDescending = "d"
        case messages = "m"
        case notifications = "n"
        case conversations = "c"
        case offers = "o"
        case favourites = "f"
        case reviews = "v"
        case blocks = "b"
        case reports = "q"
    }

    /// The most digits a position has: 18 always fit in an `Int64`.
    static let maxDigits = 18

    /// Encodes a sequence-number position.
    static func encode(_ kind: Kind, seq: Int64) -> String {
        "\(kind.rawValue).\(seq)"
    }

    /// Encodes a conversation-list position.
    static func encode(_ position: ConversationPosition) -> String {
        "\(Kind.conversations.rawValue).\(position.updatedAtMillis).\(position.id)"
    }

    /// Decodes a sequence-number cursor of the kind (`p.42`); throws 400 otherwise.
    static func decodeSeq(_ text: String?, kind: Kind) throws -> Int64? {
        guard let text else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == kind.rawValue, let seq = number(parts[1], allowZero: false) else {
            throw invalid
        }
        return seq
    }

    /// Decodes a conversation-list cursor (`c.<millis>.<id>`); throws 400 otherwise.
    static func decodeConversation(_ text: String?) throws -> ConversationPosition? {
        guard let text else { return nil }
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Kind.conversations.rawValue, let millis = number(parts[1], allowZero: true),
            RandomID.isWellFormed(parts[2])
        else { throw invalid }
        return ConversationPosition(updatedAtMillis: millis, id: String(parts[2]))
    }

    /// Encodes a product-list position: `p.<seq>`, `r.<1 or 0>.<seq>` (title match or not),
    /// `a.<cents>.<seq>` or `d.<cents>.<seq>`.
    static func encode(_ position: ProductPosition, order: ProductOrder) -> String {
        switch position {
        case .newest(let seq): encode(.products, seq: seq)
        case .relevance(let titleMatch, let seq): "\(Kind.productsByRelevance.rawValue).\(titleMatch ? 1 : 0).\(seq)"
        case .price(let cents, let seq):
            "\((order == .priceDescending ? Kind.productsByPriceDescending : .productsByPriceAscending).rawValue).\(cents).\(seq)"
        }
    }

    /// Decodes a product-list cursor, which must be of `order`'s kind; throws 400 otherwise.
    static func decodeProducts(_ text: String?, order: ProductOrder) throws -> ProductPosition? {
        guard let text else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        switch order {
        case .newest:
            return .newest(seq: try decodeSeq(text, kind: .products) ?? 0)
        case .relevance:
            guard parts.count == 3, parts[0] == Kind.productsByRelevance.rawValue, parts[1] == "0" || parts[1] == "1",
                let seq = number(parts[2], allowZero: false)
            else { throw invalid }
            return .relevance(titleMatch: parts[1] == "1", seq: seq)
        case .priceAscending, .priceDescending:
            let kind: Kind = order == .priceAscending ? .productsByPriceAscending : .productsByPriceDescending
            guard parts.count == 3, parts[0] == kind.rawValue, let cents = number(parts[1], allowZero: true),
                let seq = number(parts[2], allowZero: false)
            else { throw invalid }
            return .price(cents: cents, seq: seq)
        }
    }

    private static var invalid: APIError { .badRequest("invalid_cursor", "The cursor is not one this server issued.") }

    /// 1-18 ASCII digits without a leading zero (`0` itself only when `allowZero`), as a number:
    /// exactly the positions this server writes, so one position has one spelling.
    private static func number(_ text: Substring, allowZero: Bool) -> Int64? {
        let digits = text.utf8
        guard (1...maxDigits).contains(digits.count),
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            digits.first != UInt8(ascii: "0") || (allowZero && digits.count == 1)
        else { return nil }
        return Int64(text)
    }
}
