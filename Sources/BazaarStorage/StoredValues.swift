import BazaarAPI
import Foundation

/// How both engines store the values the wire shows in other forms: times as milliseconds since
/// 1970 in an integer column, and a user's photo as a digest that becomes its URL.
///
/// Written once here so that a row written by one engine reads back the same on the other, and a
/// time stored and a time freshly made (``BazaarJSON/roundedToMillis(_:)``) compare equal.
package enum StoredValues {
    /// A text column holding one of the wire's string-valued enumerations (a product's or an
    /// offer's status, a message's kind) as that value; anything else is a corrupt row, named by
    /// `what` ("a product's status").
    package static func decode<Value: RawRepresentable>(_ column: String, as what: String) throws -> Value
    where Value.RawValue == String {
        guard let value = Value(rawValue: column) else { throw StoreError.corrupt("\(what) is \(column)") }
        return value
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
