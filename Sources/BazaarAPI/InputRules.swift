/// The bounds of the contract's inputs, stated once: the server refuses what breaks them (422),
/// the apps check them before sending, and the browser's forms carry them as `maxlength`.
///
/// Lengths count Unicode scalars, as JSON Schema's `minLength`/`maxLength` do (so a client and the
/// server never disagree about an emoji); `openapi.yaml` states the same numbers.
public enum InputRules {
    /// A username: 3-32 of `a-z 0-9 _ .`.
    public static let username = 3...32
    /// A password: 8-128.
    public static let password = 8...128
    /// A display name: 1-64.
    public static let displayName = 1...64
    /// A profile's bio: 0-500.
    public static let bio = 0...500
    /// A product's title: 1-120.
    public static let productTitle = 1...120
    /// A product's description: 0-5000.
    public static let productDescription = 0...5000
    /// A review's text, in characters.
    public static let reviewText = 0...1000
    /// A review's rating.
    public static let rating = 1...5
    /// A price in minor units (cents): 0 to 10^12.
    public static let priceCents: ClosedRange<Int> = 0...1_000_000_000_000
    /// A message's body: 1-4000.
    public static let messageBody = 1...4000
    /// What a reporter or a moderator may add to a report or a resolution (characters).
    public static let reportNote = 0...1000
    /// How much of a `User-Agent` a session keeps (characters; the rest is cut).
    public static let userAgent = 0...200

    /// The length the rules count: Unicode scalars.
    public static func length(of text: String) -> Int {
        text.unicodeScalars.count
    }

    /// Whether `text`'s length is within `range`.
    public static func fits(_ text: String, _ range: ClosedRange<Int>) -> Bool {
        range.contains(length(of: text))
    }

    /// "1 to 4000 characters": a range as a person reads it.
    public static func describe(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound) to \(range.upperBound) characters"
    }
}
