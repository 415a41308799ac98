import HTTPTypes

/// The headers every page carries: no framing, no sniffing, scripts from this app only. Images may
/// come from the API server and, for photos chosen in the sell form and not yet sent, `blob:`.
enum SecurityHeaders {
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' http: https: data: blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

    /// Adds the headers to `fields`.
    static func apply(to fields: inout HTTPFields) {
        fields[.contentSecurityPolicy] = contentSecurityPolicy
        fields[.xContentTypeOptions] = "nosniff"
        if let referrerPolicy = HTTPField.Name("Referrer-Policy") { fields[referrerPolicy] = "same-origin" }
        fields[.cacheControl] = "no-store"
    }
}
