import Testing

@testable import BazaarServer

/// What the server takes as a JSON body's `Content-Type`: the media type before any parameter,
/// with HTTP's optional whitespace around it, in any case.
@Suite("Content-Type")
struct MediaTypeTests {
    @Test(
        "the media type is what comes before the parameters, trimmed of spaces and tabs, lower-cased",
        arguments: [
            ("application/json", "application/json"),
            ("Application/JSON; charset=utf-8", "application/json"),
            (" \tapplication/json \t;charset=utf-8", "application/json"),
            ("application/json;", "application/json"),
            (";charset=utf-8", ""),
            ("   ", ""),
            ("", ""),
            ("image/jpeg", "image/jpeg"),
            ("application/ json", "application/ json"),
        ])
    func mediaTypeOnly(_ contentType: String, _ expected: String) {
        #expect(RequestBody.mediaTypeOnly(contentType) == expected)
    }

    @Test(
        "HTTP's optional whitespace is spaces and tabs at either end, nothing else",
        arguments: [
            (" \t a, b \t ", "a, b"), ("value", "value"), ("\t\t", ""), ("", ""), (" a ", "a"),
            ("\u{A0}a\u{A0}", "\u{A0}a\u{A0}"), ("\na\r", "\na\r"),
        ])
    func trimmingHTTPWhitespace(_ text: String, _ expected: String) {
        #expect(text.trimmingHTTPWhitespace == expected)
        #expect(text[...].trimmingHTTPWhitespace == expected)
    }

    @Test(
        "JSON is application/json or application/*+json, whatever the parameters",
        arguments: [
            ("application/json", true), ("application/json; charset=utf-8", true),
            ("application/problem+json", true), ("APPLICATION/VND.BAZAAR+JSON ; v=1", true),
            ("text/json", false), ("application/jsonx", false), ("application/x-www-form-urlencoded", false),
            ("+json", false), ("", false),
        ])
    func isJSON(_ contentType: String, _ expected: Bool) {
        #expect(RequestBody.isJSON(contentType) == expected)
    }
}
