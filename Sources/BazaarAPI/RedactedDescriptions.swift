/// A wire type that carries a secret (a password, a token). What `print`, string interpolation,
/// `dump`, a debugger and a failed test's message show of it names the type and its fields, with
/// every secret as ``RedactedSecret``: a value logged by accident leaks nothing.
///
/// A type conforms by listing its fields in ``redactedFields``; the descriptions and the mirror
/// come from there. A value that holds such a type (an ``AuthResponse`` holds ``Tokens``) is
/// redacted through it, with no conformance of its own.
public protocol RedactedDescriptions: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Every field in declaration order, by its Swift name, each secret given as
    /// ``RedactedSecret/value``.
    var redactedFields: KeyValuePairs<String, Any> { get }
}

extension RedactedDescriptions {
    /// `Type(field: value, secret: [REDACTED])`.
    public var description: String {
        let fields = redactedFields.map { "\($0.key): \(String(reflecting: $0.value))" }
        return "\(Self.self)(\(fields.joined(separator: ", ")))"
    }

    /// The same as ``description``: the debug text leaks no more.
    public var debugDescription: String { description }

    /// The fields of ``redactedFields``, for `dump` and debuggers.
    public var customMirror: Mirror { Mirror(self, children: redactedFields, displayStyle: .struct) }
}

/// What a secret is shown as: `[REDACTED]`, with no quotes and no length.
public struct RedactedSecret: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The one value.
    public static let value = RedactedSecret()

    /// `[REDACTED]`.
    public var description: String { "[REDACTED]" }

    /// `[REDACTED]`.
    public var debugDescription: String { description }
}
