import HTTPTypes

/// The kit's own name and version, as servers see it in the default `User-Agent`.
public enum KitVersion {
    /// The version of the Bazaar client kit.
    public static let version = "0.16.0"

    /// `Bazaar/<version>`: the `User-Agent` a performer sends unless told otherwise.
    public static let userAgent = "Bazaar/\(version)"

    /// ``userAgent`` as a field, made once.
    static let userAgentField = HTTPField(name: .userAgent, value: userAgent)
}
