import BazaarAPI
import Foundation

/// How both engines store the values the wire shows in other forms: times as milliseconds since
/// 1970 in an integer column, and a user's photo as a digest that becomes its URL.
///
/// Written once here so that a row written by one engine reads back the same on the other, and a
/// time stored and a time freshly made (``BazaarJSON/roundedToMillis(_:)``) compare equal.
package enum StoredValues {
    /// A message's `kind` column as the wire's kind; anything else is a corrupt row.
    package static func messageKind(_ column: String) throws -> MessageKind {
        guard let kind = MessageKind(rawValue: column) else {
            throw StoreError.corrupt("a message's kind is \(column)")
        }
        return kind
    }

    /// An offer's `status` column as the wire's status; anything else is a corrupt row.
    package static func offerStatus(_ column: String) throws -> OfferStatus {
        guard let status = OfferStatus(rawValue: column) else {
            throw StoreError.corrupt("an offer's status is \(column)")
        }
        return status
    }

    /// A product's `status` column as the wire's status; anything else is a corrupt row.
    package static func productStatus(_ column: String) throws -> ProductStatus {
        guard let status = ProductStatus(rawValue: column) else {
            throw StoreError.corrupt("a product's status is \(column)")
        }
        return status
    }

    /// Milliseconds since 1970, the unit every time column uses.
    package static func millis(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The date for a millisecond column value.
    package static func date(_ millis: Int64) -> Date {
        // The same arithmetic as BazaarJSON.roundedToMillis, so stored and fresh values compare equal.
        Date(timeIntervalSince1970: Double(millis) / 1000)
    }

    /// The relative URL a user's photo is served at; the digest makes it change with the photo.
    package static func photoURL(userId: String, digest: String) -> String {
        let escaped = userId.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? userId
        return "/v1/users/\(escaped)/photo?v=\(digest.prefix(16))"
    }
}
