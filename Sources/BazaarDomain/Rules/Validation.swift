import BazaarAPI
import BazaarStorage
import Foundation

/// The field rules of the contract (kept equal to the JSON Schemas in `openapi.yaml`).
///
/// Lengths count Unicode scalars, as JSON Schema's `minLength`/`maxLength` do.
package enum Validation {
    /// The characters a username may hold.
    private static let usernameScalars = Set("abcdefghijklmnopqrstuvwxyz0123456789_.".unicodeScalars)

    /// Whether `value` could be a username at all: a sign-in with anything else names no account,
    /// and is answered without asking the store (or the throttle, whose keys it would bloat).
    package static func isUsername(_ value: String) -> Bool {
        InputRules.fits(value, InputRules.username) && value.unicodeScalars.allSatisfy(usernameScalars.contains)
    }

    package static func username(_ value: String) throws {
        guard isUsername(value) else {
            throw DomainError.invalidField(
                "username", "must be 3-32 characters: lower-case letters, digits, underscores and dots")
        }
    }

    package static func password(_ value: String, field: String = "password") throws {
        // Only a hash of the password is stored, so any character, NUL included, is fine.
        guard InputRules.fits(value, InputRules.password) else {
            throw DomainError.invalidField(field, "must be 8-128 characters")
        }
    }

    package static func displayName(_ value: String) throws {
        try length(value, field: "displayName", InputRules.displayName)
    }

    package static func bio(_ value: String) throws {
        try length(value, field: "bio", InputRules.bio)
    }

    package static func product(_ request: CreateProductRequest) throws {
        try length(request.title, field: "title", InputRules.productTitle)
        try length(request.description, field: "description", InputRules.productDescription)
        guard InputRules.priceCents.contains(request.priceCents) else {
            throw DomainError.invalidField("priceCents", "must be an integer from 0 to 1000000000000")
        }
        let upper = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)
        guard request.currency.unicodeScalars.count == 3, request.currency.unicodeScalars.allSatisfy(upper.contains)
        else {
            throw DomainError.invalidField("currency", "must be an ISO 4217 code of three upper-case letters")
        }
    }

    package static func messageBody(_ value: String) throws {
        try length(value, field: "body", InputRules.messageBody)
    }

    /// `Idempotency-Key`: 1-255 visible ASCII characters.
    package static func idempotencyKey(_ value: String?) throws -> String {
        guard let value else {
            throw DomainError.badRequest(
                "missing_idempotency_key", "Sending a message needs an Idempotency-Key header.")
        }
        guard (1...255).contains(value.unicodeScalars.count),
            value.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
        else {
            throw DomainError.invalidField("Idempotency-Key", "must be 1-255 visible ASCII characters")
        }
        return value
    }

    /// Whether `text` is an id as this server makes them: a lower-case UUID.
    package static func isId(_ text: String) -> Bool {
        RandomID.isWellFormed(text)
    }

    /// `text` when it is an id (``isId(_:)``); otherwise the field is invalid with `meaning`
    /// ("does not name a user"): what a well-formed id naming nothing gets too, so the answer
    /// does not depend on how the id is wrong, and no other string reaches a store.
    package static func id(_ text: String, field: String, _ meaning: String) throws -> String {
        guard isId(text) else { throw DomainError.invalidField(field, meaning) }
        return text
    }

    /// The length rule, and no NUL characters: PostgreSQL's text cannot hold them, so the API
    /// refuses them everywhere rather than only on one storage.
    package static func length(_ value: String, field: String, _ range: ClosedRange<Int>) throws {
        guard InputRules.fits(value, range) else {
            throw DomainError.invalidField(field, "must be \(range.lowerBound)-\(range.upperBound) characters")
        }
        guard !value.unicodeScalars.contains("\u{0}") else {
            throw DomainError.invalidField(field, "must not contain NUL characters")
        }
    }
}
