/// Why a marketplace rule refused what was asked: the one error type services throw.
///
/// Each case names what the caller did wrong, never how it travels: the server's error middleware
/// turns each into the contract's status and `{"error": {"code", "message"}}` body, in one place.
public enum DomainError: Error, Sendable, Equatable {
    /// The request cannot be understood (400): a `snake_case` code and a sentence.
    case badRequest(code: String, message: String)
    /// A field breaks its rule (422): the field's name and the rule, as "must be …".
    case invalidField(String, String)
    /// Well formed but against a rule of what it names (422): a `snake_case` code and a sentence
    /// (for example `invalid_buyer`, `own_product`).
    case unprocessable(code: String, message: String)
    /// The caller's credentials do not hold (401): a `snake_case` code and a sentence.
    case unauthorized(code: String, message: String)
    /// The caller is known, and this is refused to them (403): a `snake_case` code (`blocked`,
    /// `wrong_password`, `account_suspended`) and a sentence.
    case forbidden(code: String, message: String)
    /// Too many failed password checks for this account or address (429): try again after
    /// `retryAfter` seconds.
    case throttled(retryAfter: Int)
    /// Missing, or not the caller's to see (404, the same answer on purpose): what it was.
    case notFound(String)
    /// Conflicts with what exists (409): a `snake_case` code and a sentence.
    case conflict(code: String, message: String)
    /// Over a ``QuotaPolicy`` limit (429): try again after `retryAfter` seconds.
    case rateLimited(QuotaAction, retryAfter: Int)
    /// The server is at a bound of its own for this work (503), whoever asks: why, and when to
    /// try again. Nothing was done.
    case busy(String, retryAfter: Int)

    /// 403 `blocked`: one of the two blocked the other (or, for a message, the other deleted
    /// their account).
    package static let blocked = DomainError.forbidden(
        code: "blocked", message: "You cannot do this: one of you has blocked the other, or their account is gone.")

    /// 400 with this code and message.
    static func badRequest(_ code: String, _ message: String) -> DomainError {
        .badRequest(code: code, message: message)
    }
}
