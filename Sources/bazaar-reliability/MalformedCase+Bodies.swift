import BazaarAPI
import Foundation

extension MalformedCase {
    /// Bodies that are not what a route takes: invalid UTF-8, deep nesting, numbers no field can
    /// hold, empty, too large, or of the wrong media type.
    static let bodyCases: [MalformedCase] = [
        json(
            "invalid UTF-8 in a JSON string (login)", .status([400]), path: APIRoutes.login.template,
            body: Data(#"{"username":""#.utf8) + Data([0xC3, 0x28]) + Data(#"","password":""#.utf8)
                + Data([0xFF, 0xFE, 0xFD]) + Data(#""}"#.utf8)),
        json(
            "invalid UTF-8 in a message body", .status([400]),
            message: Data(#"{"body":"caf"#.utf8) + Data([0xE9]) + Data(#""}"#.utf8)),
        json(
            "invalid UTF-8 outside any string", .status([400]),
            product: Data(#"{"title":"#.utf8) + Data([0xFF, 0xC0]) + Data("}".utf8)),
        json(
            "lone surrogate escape in a message body", .status([400, 422]), message: Data(#"{"body":"\ud800"}"#.utf8)),
        json(
            "100 000 nested [ (over the 64 KiB JSON limit)", .rejected,
            product: Data(repeating: UInt8(ascii: "["), count: 100_000)),
        json(
            "60 000 nested [ (under the JSON limit)", .status([400]),
            product: Data(repeating: UInt8(ascii: "["), count: 60_000)),
        json(
            "12 000 nested {\"a\": objects", .status([400]),
            product: Data(String(repeating: #"{"a":"#, count: 12_000).utf8)),
        json("priceCents 1e400", .status([400]), product: productBody(price: "1e400")),
        json(
            "priceCents 123456789012345678901234567890", .status([400]),
            product: productBody(price: "123456789012345678901234567890")),
        json(
            "priceCents 9223372036854775808 (Int64.max + 1)", .status([400]),
            product: productBody(price: "9223372036854775808")),
        json("priceCents -1", .status([422]), product: productBody(price: "-1")),
        json("priceCents 1.5", .status([400]), product: productBody(price: "1.5")),
        json("priceCents 1e15 (integral, over the rule)", .status([400, 422]), product: productBody(price: "1e15")),
        query("limit=1e400", path: APIRoutes.products.template + "?limit=1e400"),
        query(
            "limit=123456789012345678901234567890",
            path: APIRoutes.products.template + "?limit=123456789012345678901234567890"),
        query("limit=-1 on messages", messagesQuery: "?limit=-1"),
        json("empty body, Content-Type json (login)", .status([400]), path: APIRoutes.login.template, body: Data()),
        json("empty body, Content-Type json (create product)", .status([400]), product: Data()),
        json("empty body, Content-Type json (send message)", .status([400]), message: Data()),
        MalformedCase(name: "10 MiB JSON body with Content-Length", expectation: .rejected) { context in
            try await RawProbe.request(
                "POST \(APIRoutes.createProduct.template) HTTP/1.1\r\nContent-Type: application/json\r\nAuthorization: Bearer \(context.token)",
                body: Data(repeating: UInt8(ascii: " "), count: 10 << 20), port: context.port, timeoutSeconds: 5)
        },
        MalformedCase(name: "10 MiB chunked JSON body", expectation: .rejected) { context in
            var request =
                "POST \(APIRoutes.createProduct.template) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            request +=
                "Content-Type: application/json\r\nAuthorization: Bearer \(context.token)\r\nTransfer-Encoding: chunked\r\n\r\n"
            var bytes = Data(request.utf8)
            let chunk = Data("10000\r\n".utf8) + Data(repeating: UInt8(ascii: " "), count: 0x10000) + Data("\r\n".utf8)
            for _ in 0..<160 { bytes += chunk }
            bytes += Data("0\r\n\r\n".utf8)
            return try await RawProbe.send(bytes, port: context.port, awaitClose: true, timeoutSeconds: 5)
        },
        MalformedCase(name: "10 MiB photo upload (limit 5 MiB)", expectation: .rejected) { context in
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            return try await RawProbe.request(
                "PUT \(APIRoutes.uploadPhoto.template) HTTP/1.1\r\nContent-Type: image/png\r\nAuthorization: Bearer \(context.token)",
                body: Data(png) + Data(repeating: 7, count: 10 << 20), port: context.port, timeoutSeconds: 5)
        },
        MalformedCase(name: "Content-Length larger than the body sent", expectation: .judgedByCase) { context in
            // The server waits for the rest; the client gives up after a second and closes.
            let request =
                "POST \(APIRoutes.login.template) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1000\r\n\r\n{\"username\":"
            var outcome = try await RawProbe.send(Data(request.utf8), port: context.port, timeoutSeconds: 1)
            outcome.note = "the server waits for the rest; we hung up after 1 s"
            return outcome
        },
        contentType("text/plain", path: APIRoutes.login.template),
        contentType(nil, path: APIRoutes.login.template),
        contentType("application/x-www-form-urlencoded", path: APIRoutes.createProduct.template),
        contentType("multipart/form-data; boundary=x", path: nil),
        MalformedCase(name: "JSON sent as a photo", expectation: .status([415])) { context in
            try await RawProbe.request(
                "PUT \(APIRoutes.uploadPhoto.template) HTTP/1.1\r\nContent-Type: application/json\r\nAuthorization: Bearer \(context.token)",
                body: Data("{}".utf8), port: context.port)
        },
    ]

    /// A product body with `price` written as is in `priceCents`.
    static func productBody(price: String) -> Data {
        Data(#"{"title":"Bike","description":"A bike","priceCents":\#(price),"currency":"EUR"}"#.utf8)
    }

    /// A JSON POST of `body` to `path`, authenticated (and with an `Idempotency-Key`).
    static func json(_ name: String, _ expectation: Expectation, path: String, body: Data) -> MalformedCase {
        MalformedCase(name: name, expectation: expectation) { context in
            try await post(path, body: body, contentType: "application/json", context: context)
        }
    }

    /// A JSON POST of `body` to the create-product route.
    static func json(_ name: String, _ expectation: Expectation, product body: Data) -> MalformedCase {
        json(name, expectation, path: APIRoutes.createProduct.template, body: body)
    }

    /// A JSON POST of `body` to the user's conversation's send-message route.
    static func json(_ name: String, _ expectation: Expectation, message body: Data) -> MalformedCase {
        MalformedCase(name: name, expectation: expectation) { context in
            try await post(
                APIRoutes.sendMessage.path(context.conversationID), body: body, contentType: "application/json",
                context: context)
        }
    }

    /// A GET of `path` with a number no parameter can hold: 422 (the rule of `limit`).
    static func query(_ name: String, path: String) -> MalformedCase {
        MalformedCase(name: name, expectation: .status([400, 422])) { context in
            try await RawProbe.request(
                "GET \(path) HTTP/1.1\r\nAuthorization: Bearer \(context.token)", port: context.port)
        }
    }

    /// A GET of the user's conversation's messages with `query`.
    static func query(_ name: String, messagesQuery query: String) -> MalformedCase {
        MalformedCase(name: name, expectation: .status([400, 422])) { context in
            try await RawProbe.request(
                "GET \(APIRoutes.messages.path(context.conversationID))\(query) HTTP/1.1\r\nAuthorization: Bearer \(context.token)",
                port: context.port)
        }
    }

    /// A valid JSON body sent as `contentType` (or with none) to `path` (the send-message route when `nil`): 415.
    static func contentType(_ contentType: String?, path: String?) -> MalformedCase {
        MalformedCase(
            name: "Content-Type \(contentType ?? "missing") on \(path ?? "send message")", expectation: .status([415])
        ) { context in
            let target = path ?? APIRoutes.sendMessage.path(context.conversationID)
            return try await post(
                target, body: Data(#"{"username":"x","password":"y"}"#.utf8), contentType: contentType, context: context
            )
        }
    }

    /// POSTs `body` with the user's token, an `Idempotency-Key`, and `contentType` when given.
    static func post(_ path: String, body: Data, contentType: String?, context: CaseContext) async throws -> CaseOutcome
    {
        var head =
            "POST \(path) HTTP/1.1\r\nAuthorization: Bearer \(context.token)\r\nIdempotency-Key: malformed-\(UUID().uuidString)"
        if let contentType { head += "\r\nContent-Type: \(contentType)" }
        return try await RawProbe.request(head, body: body, port: context.port)
    }
}
