import Testing

@testable import BazaarServer

/// Which `If-None-Match` values name a response's ETag (and earn a `304`).
@Suite("If-None-Match")
struct EntityTagTests {
    @Test(
        "If-None-Match names an ETag by its opaque part, weak or strong, in a list, or with *",
        arguments: [
            (#""abc""#, true), (#"W/"abc""#, true), (#""x", W/"abc""#, true), (" \t\"abc\" \t", true), ("*", true),
            (#""x", *"#, true), (#""abd""#, false), (#""ab""#, false), ("", false), (#"W/"x""#, false),
            (#""ABC""#, false),
        ])
    func ifNoneMatch(_ header: String, _ matches: Bool) {
        #expect(HTTPCaching.matches(ifNoneMatch: header, etag: #""abc""#) == matches)
    }
}
