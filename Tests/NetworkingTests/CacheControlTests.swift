import Testing

@testable import Networking

@Suite("CacheControl parsing")
struct CacheControlTests {
    @Test("directive names match without case and around spaces and tabs")
    func namesIgnoreCaseAndSpaces() {
        let control = CacheControl(" Max-Age=60 ,\tNO-STORE, no-Cache ,Private,MUST-REVALIDATE ")
        #expect(control.maxAge == 60)
        #expect(control.noStore && control.noCache && control.isPrivate && control.mustRevalidate)
    }

    @Test("a quoted max-age is read; repeated ones keep the smallest")
    func quotedAndRepeatedMaxAge() {
        #expect(CacheControl("max-age=\"30\"").maxAge == 30)
        #expect(CacheControl("max-age=300, max-age=20, max-age=100").maxAge == 20)
    }

    @Test(
        "a max-age that is not a non-negative decimal number is ignored",
        arguments: [
            "max-age", "max-age=", "max-age=-1", "max-age=+5", "max-age=1.5", "max-age=ten",
            "max-age=99999999999999999999999", "max-age=\"",
        ])
    func invalidMaxAgeIsIgnored(header: String) {
        #expect(CacheControl(header).maxAge == nil)
    }

    @Test("unknown directives, empty parts and a missing header change nothing")
    func unknownAndEmpty() {
        #expect(CacheControl("public, immutable, ,, stale-while-revalidate=30") == CacheControl(nil))
        #expect(CacheControl("") == CacheControl(nil))
        #expect(CacheControl("no-storex, xprivate") == CacheControl(nil))
    }
}
