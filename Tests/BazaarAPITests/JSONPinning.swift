import Foundation
import Testing

@testable import BazaarAPI

/// Decodes `json` as `T`, encodes it back with the contract encoder, and returns both the value and
/// the re-encoded text, so a test can pin the exact wire form.
func roundTrip<T: Codable>(_ type: T.Type, _ json: String) throws -> (value: T, encoded: String) {
    let value = try BazaarJSON.makeDecoder().decode(T.self, from: Data(json.utf8))
    let data = try BazaarJSON.makeEncoder().encode(value)
    return (value, String(decoding: data, as: UTF8.self))
}

/// Parses JSON text into a Foundation object graph so two texts can be compared ignoring whitespace.
func jsonObject(_ text: String) throws -> NSObject {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? NSObject)
}
