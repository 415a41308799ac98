import BazaarAPI
import BazaarServer
import BazaarStorage
import Foundation
import NIOHTTP1
import TestSupport
import Testing

@Suite("Every error status, in the JSON error shape")
struct ErrorStatusTests {
    @Test func malformedJSONIs400() async throws {
        try await BazaarTestHarness.withServer { client in
            let broken = try await client.send(
                .POST, APIRoutes.login.template, rawBody: Data("{\"username\":".utf8), contentType: "application/json")
            expectError(broken, 400, code: "malformed_body")
            let wrongShape = try await client.send(
                .POST, APIRoutes.login.template, rawBody: Data("[1,2]".utf8), contentType: "application/json")
            expectError(wrongShape, 400, code: "malformed_body")
            let wrongType = try await client.send(
                .POST, APIRoutes.login.template, rawBody: Data(#"{"username":1,"password":"x"}"#.utf8),
                contentType: "application/json")
            expectError(wrongType, 400, code: "malformed_body")
            let empty = try await client.send(
                .POST, APIRoutes.login.template, rawBody: Data(), contentType: "application/json")
            expectError(empty, 400)
        }
    }

    @Test func missingOrBadCredentialsAre401() async throws {
        try await BazaarTestHarness.withServer { client in
            for route in APIRoutes.all where route.requiresAuth && route != APIRoutes.events {
                let response = try await client.send(HTTPMethod(rawValue: route.method), route.path("x", "x"))
                expectError(response, 401)
            }
        }
    }

    @Test func everyAnswerForbidsContentSniffingWhetherARouteACachedBodyOrAnErrorMadeIt() async throws {
        try await BazaarTestHarness.withServer { client in
            let answers = [
                try await client.get(APIRoutes.products.template),
                try await client.get(APIRoutes.products.template),  // the cached body
                try await client.get("/v1/nothing-here"),
                try await client.send(
                    .POST, APIRoutes.login.template, rawBody: Data("{".utf8), contentType: "application/json"),
                try await client.send(.GET, APIRoutes.me.template),
            ]
            for answer in answers {
                #expect(answer.header("X-Content-Type-Options") == "nosniff", "status \(answer.status)")
            }
        }
    }

    @Test func unknownRoutesAndIdsAre404() async throws {
        try await BazaarTestHarness.withServer { client in
            expectError(try await client.get("/v1/nothing-here"), 404, code: "not_found")
            expectError(try await client.get(APIRoutes.user.path("missing")), 404, code: "not_found")
        }
    }

    @Test func aTakenUsernameIs409() async throws {
        try await BazaarTestHarness.withServer { client in
            _ = try await client.register("ada")
            expectError(
                try await client.post(
                    APIRoutes.register.template,
                    RegisterRequest(username: "ada", password: "password123", displayName: "A")), 409)
        }
    }

    @Test func aJSONBodyOver64KiBIs413() async throws {
        try await BazaarTestHarness.withServer { client in
            let huge = RegisterRequest(
                username: "ada", password: String(repeating: "p", count: 70_000), displayName: "A")
            expectError(try await client.post(APIRoutes.register.template, huge), 413, code: "body_too_large")
        }
    }

    @Test func aBodyThatIsNotJSONIs415() async throws {
        try await BazaarTestHarness.withServer { client in
            let form = try await client.send(
                .POST, APIRoutes.login.template, rawBody: Data("username=ada".utf8),
                contentType: "application/x-www-form-urlencoded")
            expectError(form, 415, code: "unsupported_media_type")
            let none = try await client.send(.POST, APIRoutes.login.template, rawBody: Data("{}".utf8))
            expectError(none, 415)
            // JSON with a charset parameter is still JSON.
            let charset = try await client.send(
                .POST, APIRoutes.login.template, json: LoginRequest(username: "ada", password: "password123"),
                contentType: "application/json; charset=utf-8")
            expectError(charset, 401)
        }
    }

    @Test func aFieldBreakingItsRuleIs422() async throws {
        try await BazaarTestHarness.withServer { client in
            expectError(
                try await client.post(
                    APIRoutes.register.template,
                    RegisterRequest(username: "a", password: "password123", displayName: "A")), 422,
                code: "invalid_field")
        }
    }

    @Test func repeatedLoginFailuresAre429() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        var configuration = BazaarTestHarness.configuration(directory: directory)
        configuration.loginThrottle = .init(
            maxFailuresPerAccountAndAddress: 1, maxFailuresPerAddress: 100, window: .seconds(60))
        try await BazaarTestHarness.withServer(configuration: configuration) { client in
            _ = try await client.post(
                APIRoutes.login.template, LoginRequest(username: "ada", password: "wrong-password"))
            let throttled = try await client.post(
                APIRoutes.login.template, LoginRequest(username: "ada", password: "wrong-password"))
            expectError(throttled, 429, code: "too_many_attempts")
        }
    }

    @Test func aMethodAKnownPathDoesNotTakeIs405WithAllow() async throws {
        try await BazaarTestHarness.withServer { client in
            let products = try await client.send(.DELETE, APIRoutes.products.template)
            expectError(products, 405, code: "method_not_allowed")
            #expect(products.header("Allow") == "GET, POST")
            let user = try await client.send(.DELETE, APIRoutes.user.path("someone"))
            expectError(user, 405)
            #expect(user.header("Allow") == "GET")
            let health = try await client.send(.PUT, APIRoutes.health.template)
            #expect(health.header("Allow") == "GET")
            // A literal segment wins over a parameter, as in the router.
            #expect(try await client.send(.PUT, APIRoutes.me.template).header("Allow") == "DELETE, GET, PATCH")
            #expect(try await client.send(.OPTIONS, APIRoutes.uploadPhoto.template).header("Allow") == "PUT")
            // A path the API does not have at all stays 404.
            expectError(try await client.send(.DELETE, "/v1/products/x/y"), 404)
        }
    }

    @Test(arguments: [
        "GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n",
        "GET /he\u{0}alth HTTP/1.1\r\nHost: x\r\n\r\n",
        "GARBAGE\r\n\r\n",
        "GET /health HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
    ])
    func requestsThatAreNotHTTPGet400AndAClosedConnectionNotSilence(raw: String) async throws {
        try await BazaarTestHarness.withServer { client in
            let port = try #require(client.baseURL.port)
            let exchange = try await RawHTTP.exchange(Data(raw.utf8), port: port)
            #expect(exchange.closedByServer)
            #expect(exchange.text.hasPrefix("HTTP/1.1 400"), "\(exchange.text)")
            #expect(exchange.text.contains(#"{"error":{"code":"malformed_request""#))
        }
    }

    @Test(arguments: [1, 3])
    func garbagePipelinedAfterValidRequestsIsRefusedOnlyAfterTheyAreAnswered(valid count: Int) async throws {
        try await BazaarTestHarness.withServer { client in
            let port = try #require(client.baseURL.port)
            // One write: the parser meets the garbage before the router has answered the requests before it.
            // The answers need the router's task; the generous wait is for a busy machine (a pass ends at the close).
            let valid = String(repeating: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n", count: count)
            let exchange = try await RawHTTP.exchange(
                Data((valid + "\u{0}\u{1}GARBAGE\r\n\r\n").utf8), port: port, timeoutSeconds: 15)
            let statuses = exchange.text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) }
            #expect(statuses == Array(repeating: "200", count: count) + ["400"], "\(exchange.text)")
            #expect(
                exchange.text.hasSuffix(
                    #"{"error":{"code":"malformed_request","message":"The request is not valid HTTP/1.1."}}"#))
            #expect(exchange.closedByServer)
        }
    }

    @Test func aBrokenChunkedBodyIs400AndAClosedConnection() async throws {
        try await BazaarTestHarness.withServer { client in
            let port = try #require(client.baseURL.port)
            var request = "POST \(APIRoutes.login.template) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            request += "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
            let exchange = try await RawHTTP.exchange(Data(request.utf8), port: port)
            #expect(exchange.text.hasPrefix("HTTP/1.1 400"), "\(exchange.text)")
            #expect(exchange.text.contains(#"{"error":{"code":"malformed_request""#))
            #expect(exchange.closedByServer)
        }
    }

    /// Every string a client sends (a body's fields, a path's ids, a query) is checked before it
    /// reaches a store: a NUL or an over-long value is a 4xx with an error code on both engines
    /// (PostgreSQL's text cannot hold NUL, and its index entries are bounded), never a 500.
    @Test(arguments: StorageKind.available)
    func hostileInputNeverGetsA500(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let token = ada.tokens.accessToken
            let conversation = try await client.startConversation(with: bob.user.id, token: token)
            let product = try await client.createProduct("Lamp", token: token)
            let nul = "\\u0000"
            let long = String(repeating: "a", count: 3000)
            let bodies = [
                "null", "\"string\"", "0", "{\"body\":null}", "{\"body\":\"\(nul)\"}", "{\"ids\":[1]}",
                "{\"all\":\"yes\"}",
                String(repeating: "[", count: 10_000), "{\"priceCents\":1e400}", "\u{FEFF}{}", "{\"upTo\":{}}",
                // NUL and length in every string a store is asked about.
                "{\"username\":\"ada\(nul)\",\"password\":\"password123\",\"displayName\":\"Ada\"}",
                "{\"username\":\"\(long)\",\"password\":\"password123\",\"displayName\":\"Ada\"}",
                "{\"refreshToken\":\"\(nul)\"}", "{\"refreshToken\":\"\(long)\"}",
                "{\"userId\":\"\(nul)\"}", "{\"userId\":\"\(bob.user.id)\(nul)\"}", "{\"userId\":\"\(long)\"}",
                "{\"userId\":\"\(bob.user.id)\",\"productId\":\"\(nul)\"}",
                "{\"userId\":\"\(bob.user.id)\",\"productId\":\"\(long)\"}",
                "{\"upTo\":\"\(nul)\"}", "{\"upTo\":\"\(long)\"}", "{\"ids\":[\"\(nul)\"]}", "{\"ids\":[\"\(long)\"]}",
                "{\"title\":\"a\(nul)\",\"description\":\"b\",\"priceCents\":1,\"currency\":\"EUR\"}",
                "{\"photoIds\":[\"\(nul)\"]}",
                // One "word" longer than PostgreSQL's 2 046-byte lexeme limit: listed, not 500.
                "{\"title\":\"t\",\"description\":\"\(String(repeating: "0", count: 3000))\",\"priceCents\":1,\"currency\":\"EUR\"}",
            ]
            let paths = [
                APIRoutes.register.template, APIRoutes.login.template, APIRoutes.refresh.template,
                APIRoutes.createProduct.template,
                APIRoutes.startConversation.template, APIRoutes.sendMessage.path("x"), APIRoutes.markRead.path("x"),
                APIRoutes.sendMessage.path(conversation.id), APIRoutes.markRead.path(conversation.id),
                APIRoutes.markNotificationsRead.template,
            ]
            for path in paths {
                for body in bodies {
                    let response = try await client.send(
                        .POST, path, rawBody: Data(body.utf8), contentType: "application/json", token: token,
                        headers: [(APIHeaders.idempotencyKey, "k")])
                    #expect(response.status < 500, "\(path) with \(body.prefix(60)): \(response.text)")
                    if response.status >= 400 {
                        #expect(response.errorCode != nil, "\(path) with \(body.prefix(60)): \(response.text)")
                    }
                }
            }
            let reorder = try await client.send(
                .PUT, APIRoutes.reorderProductPhotos.path(product.id),
                rawBody: Data("{\"photoIds\":[\"\(nul)\"]}".utf8),
                contentType: "application/json", token: token)
            #expect(reorder.status < 500, "reorder: \(reorder.text)")
            for query in [
                "limit=1e3", "limit=", "cursor=", "cursor=%00", "query=%00", "before=djE6bTotMQ", "sellerId=%00",
                "sellerId=\(long)", "query=\(long)",
            ] {
                let products = try await client.get(APIRoutes.products.template + "?" + query)
                let messages = try await client.get(
                    APIRoutes.messages.path(conversation.id) + "?" + query, token: token)
                #expect(products.status < 500, "\(query): \(products.text)")
                #expect(messages.status < 500, "\(query): \(messages.text)")
            }
            for id in ["%00", "\(bob.user.id)%00", long] {
                for path in [
                    APIRoutes.user.path(id), APIRoutes.userPhoto.path(id), APIRoutes.product.path(id),
                    APIRoutes.conversation.path(id), APIRoutes.messages.path(id),
                    APIRoutes.productPhoto.path(product.id, id), APIRoutes.productPhoto.path(id, id),
                ] {
                    let response = try await client.get(path, token: token)
                    #expect(response.status == 404, "\(path): \(response.status) \(response.text.prefix(200))")
                }
            }
        }
    }
}
