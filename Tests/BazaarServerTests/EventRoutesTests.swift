import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

@Suite("Live events over WebSocket")
struct EventRoutesTests {
    @Test func aMessageReachesTheRecipientsSocketAndNothingReachesAThirdUser() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let cyd = try await client.register("cyd")
            let adaSocket = try await EventSocket.connect(
                baseURL: client.baseURL, credential: .header(ada.tokens.accessToken))
            let cydSocket = try await EventSocket.connect(
                baseURL: client.baseURL, credential: .query(cyd.tokens.accessToken))
            let conversation = try await client.startConversation(with: ada.user.id, token: bob.tokens.accessToken)
            let sent = try await client.sendMessage(
                "are you there?", in: conversation.id, token: bob.tokens.accessToken
            )
            .decode(Message.self)

            #expect(await adaSocket.next(timeout: .seconds(5)) == .messageCreated(sent))
            guard case .notificationCreated(let notification)? = await adaSocket.next(timeout: .seconds(5)) else {
                Issue.record("expected notification.created")
                return
            }
            #expect(notification.messageId == sent.id)

            // Ada reads it; Bob would be told, Cyd still hears nothing at all.
            expectStatus(
                try await client.post(
                    APIRoutes.markRead.path(conversation.id), MarkReadRequest(upTo: sent.id),
                    token: ada.tokens.accessToken), 204)
            #expect(
                await adaSocket.next(timeout: .seconds(5))
                    == .conversationRead(
                        ConversationRead(conversationId: conversation.id, userId: ada.user.id, upTo: sent.id)))
            #expect(await cydSocket.next(timeout: .milliseconds(500)) == nil)
            await adaSocket.close()
            await cydSocket.close()
        }
    }

    @Test func theSenderIsToldOfTheirOwnMessageForTheirOtherDevices() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let bobSocket = try await EventSocket.connect(
                baseURL: client.baseURL, credential: .header(bob.tokens.accessToken))
            let conversation = try await client.startConversation(with: ada.user.id, token: bob.tokens.accessToken)
            let sent = try await client.sendMessage("hi", in: conversation.id, token: bob.tokens.accessToken).decode(
                Message.self)
            #expect(await bobSocket.next(timeout: .seconds(5)) == .messageCreated(sent))
            // But no notification for it.
            #expect(await bobSocket.next(timeout: .milliseconds(300)) == nil)
            await bobSocket.close()
        }
    }

    @Test func theHandshakeWithoutAValidTokenIsRefused() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            for credential in [EventSocket.Credential.header("forged"), .query("forged"), .query("")] {
                await #expect(throws: (any Error).self) {
                    _ = try await EventSocket.connect(baseURL: client.baseURL, credential: credential)
                }
            }
            // A revoked session's token is refused too.
            expectStatus(try await client.post(APIRoutes.logout.template, token: ada.tokens.accessToken), 204)
            await #expect(throws: (any Error).self) {
                _ = try await EventSocket.connect(baseURL: client.baseURL, credential: .header(ada.tokens.accessToken))
            }
        }
    }

    @Test func aHandshakeWithoutAValidTokenIsAnswered401InTheJSONShape() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let port = try #require(client.baseURL.port)
            func handshake(_ target: String, authorization: String? = nil, wait: Int = 10) async throws
                -> RawHTTP.Exchange
            {
                var request =
                    "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                request += "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                if let authorization { request += "Authorization: \(authorization)\r\n" }
                return try await RawHTTP.exchange(Data((request + "\r\n").utf8), port: port, timeoutSeconds: wait)
            }
            func expect401(
                _ exchange: RawHTTP.Exchange, code: String, sourceLocation: SourceLocation = #_sourceLocation
            ) {
                #expect(exchange.text.hasPrefix("HTTP/1.1 401"), "\(exchange.text)", sourceLocation: sourceLocation)
                #expect(
                    exchange.text.contains(#"{"error":{"code":"\#(code)""#), "\(exchange.text)",
                    sourceLocation: sourceLocation)
                #expect(exchange.closedByServer, sourceLocation: sourceLocation)
            }
            expect401(try await handshake(APIRoutes.events.template), code: "unauthenticated")
            expect401(try await handshake(APIRoutes.events.template + "?token=forged"), code: "invalid_token")
            expect401(
                try await handshake(APIRoutes.events.template, authorization: "Bearer forged"), code: "invalid_token")
            // The same handshake with Ada's token is upgraded.
            let accepted = try await handshake(
                APIRoutes.events.template, authorization: "Bearer \(ada.tokens.accessToken)", wait: 5)
            #expect(accepted.text.hasPrefix("HTTP/1.1 101"), "\(accepted.text)")
            // After logout the token no longer opens a socket.
            expectStatus(try await client.post(APIRoutes.logout.template, token: ada.tokens.accessToken), 204)
            expect401(
                try await handshake(APIRoutes.events.template, authorization: "Bearer \(ada.tokens.accessToken)"),
                code: "session_revoked")
        }
    }

    @Test func withoutAValidTokenAPlainGETOfTheEventsRouteIs401() async throws {
        try await BazaarTestHarness.withServer { client in
            expectError(try await client.get(APIRoutes.events.template), 401, code: "unauthenticated")
            expectError(try await client.get(APIRoutes.events.template + "?token=forged"), 401, code: "invalid_token")
            expectError(try await client.get(APIRoutes.events.template, token: "forged"), 401, code: "invalid_token")
        }
    }

    @Test func aPlainGETWithAValidTokenIsToldToUpgrade() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            expectError(
                try await client.get(APIRoutes.events.template, token: ada.tokens.accessToken), 426,
                code: "upgrade_required")
        }
    }
}
