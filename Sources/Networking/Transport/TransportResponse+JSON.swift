import Foundation

extension TransportResponse {
    /// Decodes the body as JSON into a `T`.
    ///
    /// A response served fresh from an ``HTTPCache``'s memory decodes its bytes once: later hits
    /// on the same entry, decoding the same type with the same `decoder` instance, get the value
    /// decoded before (class instances excepted). Custom ``APIRequest/decode(_:using:)``
    /// implementations can call this to share that saving.
    public func decodeJSON<T: Decodable & Sendable>(_ type: T.Type, using decoder: JSONDecoder) throws -> T {
        guard let decodedValues else { return try decoder.decode(T.self, from: body) }
        if let kept = decodedValues.value(as: T.self, decodedBy: decoder) { return kept }
        let value = try decoder.decode(T.self, from: body)
        decodedValues.keep(value, decodedBy: decoder)
        return value
    }
}
