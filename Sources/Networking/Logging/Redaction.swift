import Foundation
import HTTPTypes

/// Hides secrets before anything reaches a log: credentials in headers, query values and JSON fields.
public enum Redaction {
    /// What replaces a secret.
    public static let placeholder = "[REDACTED]"

    private static let sensitiveHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "idempotency-key",
    ]
    private static let sensitiveWords = ["token", "password", "secret", "authorization", "apikey", "api_key", "cookie"]

    /// Whether a header, query or JSON field with this name holds a secret.
    public static func isSensitive(name: String) -> Bool {
        let lowered = name.lowercased()
        return sensitiveHeaders.contains(lowered) || sensitiveWords.contains { lowered.contains($0) }
    }

    /// Header fields as `name: value` lines with secret values replaced.
    public static func headers(_ fields: HTTPFields) -> String {
        fields.map { field in
            "\(field.name.rawName): \(isSensitive(name: field.name.rawName) ? placeholder : field.value)"
        }.joined(separator: "\n")
    }

    /// A path with the values of secret query parameters (`?token=…`) replaced.
    public static func path(_ path: String) -> String {
        guard let mark = path.firstIndex(of: "?") else { return path }
        let query = path[path.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map {
            pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            let decoded = PercentEncoding.decode(Substring(name)) ?? name
            return isSensitive(name: decoded) ? "\(name)=\(placeholder)" : String(pair)
        }
        return path[..<mark] + "?" + query.joined(separator: "&")
    }

    /// A JSON body with secret fields replaced, at any depth; other bodies as their size only.
    public static func body(_ data: Data) -> String {
        guard !data.isEmpty else { return "" }
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            let cleaned = try? JSONSerialization.data(
                withJSONObject: redact(object), options: [.sortedKeys, .fragmentsAllowed])
        else { return "<\(data.count) bytes>" }
        return String(decoding: cleaned, as: UTF8.self)
    }

    private static func redact(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (key, inner) in object {
                copy[key] = isSensitive(name: key) ? placeholder : redact(inner)
            }
            return copy
        }
        if let array = value as? [Any] {
            return array.map(redact)
        }
        return value
    }
}
