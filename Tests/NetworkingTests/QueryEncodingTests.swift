import Foundation
import Networking
import Testing

@Suite("Query and form encoding")
struct QueryEncodingTests {
    @Test("every character outside RFC 3986's unreserved set is percent-encoded, byte for byte")
    func percentEncodesReservedCharacters() {
        let query: QueryParameters = ["q": "a+b & c=d/é?#%", "emoji": "👍🏽", "safe": "AZaz09-._~"]
        #expect(
            query.percentEncoded()
                == "q=a%2Bb%20%26%20c%3Dd%2F%C3%A9%3F%23%25&emoji=%F0%9F%91%8D%F0%9F%8F%BD&safe=AZaz09-._~")
    }

    @Test("form encoding writes spaces as plus and everything else as in a query")
    func formEncodingUsesPlusForSpaces() {
        let form: QueryParameters = ["name": "Ada Lovelace", "note": "1+1=2"]
        #expect(form.percentEncoded(spaces: .plus) == "name=Ada+Lovelace&note=1%2B1%3D2")
    }

    @Test("arrays repeat the name, or add brackets when asked; optionals that are nil are left out")
    func arraysAndOptionals() {
        var query: QueryParameters = ["tag": ["a", "b"], "missing": String?.none, "limit": 20, "on": true]
        #expect(query.percentEncoded() == "tag=a&tag=b&limit=20&on=true")
        query = QueryParameters()
        query.append("tag", ["x y", "z"], arrays: .brackets)
        #expect(query.percentEncoded() == "tag%5B%5D=x%20y&tag%5B%5D=z")
    }

    @Test(
        "parsing an encoded query gives back the same pairs",
        arguments: [
            "plain", "a+b", "a&b=c", "100% sure", "emoji 👍🏽 ok", "ünïcödé", "", "=&?#/",
        ])
    func roundTripThroughParser(value: String) throws {
        let query: QueryParameters = ["v": value, "list": [value, "second"]]
        for spaces in [PercentEncoding.SpaceStyle.percent, .plus] {
            let parsed = try #require(
                QueryParameters(percentEncoded: query.percentEncoded(spaces: spaces), spaces: spaces))
            #expect(parsed == query)
        }
    }

    @Test("a malformed escape does not parse")
    func malformedEscapeIsRejected() {
        #expect(QueryParameters(percentEncoded: "a=%G1") == nil)
        #expect(QueryParameters(percentEncoded: "a=%4") == nil)
        #expect(QueryParameters(percentEncoded: "a=%FF") == nil)
    }

    @Test("a real server reads back exactly the query values that were sent")
    func serverReadsQueryBack() async throws {
        try await KitFixture.with { fixture in
            let values = ["a+b", "x&y=z", "two words", "😀🇻🇳", "100%", "/?#[]"]
            let query: QueryParameters = ["v": values, "single": "é"]
            let echo = try await fixture.client().send(Get<Echo>(path: "/echo", query: query))
            #expect(echo.query.filter { $0.first == "v" }.map { $0[1] } == values)
            #expect(echo.query.first { $0.first == "single" }?[1] == "é")
        }
    }

    @Test("a real server's form decoder reads back every field, arrays included")
    func serverReadsFormBack() async throws {
        try await KitFixture.with { fixture in
            var form = QueryParameters()
            form.append("text", "a+b & c=d 😀")
            form.append("tags", ["x y", "1+1", "ü"], arrays: .brackets)
            let request = Send<FormFields>(path: "/form", method: .post, parameters: .form(form))
            let fields = try await fixture.client().send(request)
            #expect(fields == FormFields(text: "a+b & c=d 😀", tags: ["x y", "1+1", "ü"]))
        }
    }
}
