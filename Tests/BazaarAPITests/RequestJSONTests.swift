import Foundation
import Testing

@testable import BazaarAPI

@Suite("Request bodies keep their wire form")
struct RequestJSONTests {
    @Test func updateProfileOmitsFieldsLeftOut() throws {
        let json = #"{"bio":"new bio"}"#
        let (request, encoded) = try roundTrip(UpdateProfileRequest.self, json)
        #expect(request.displayName == nil)
        #expect(encoded == json)
    }

    @Test func createProductRoundTrips() throws {
        let json = #"{"currency":"EUR","description":"d","priceCents":5,"title":"t"}"#
        #expect(try roundTrip(CreateProductRequest.self, json).encoded == json)
    }

    @Test func startConversationWithAndWithoutProduct() throws {
        let with = #"{"productId":"p1","userId":"u2"}"#
        #expect(try roundTrip(StartConversationRequest.self, with).encoded == with)
        let without = #"{"userId":"u2"}"#
        #expect(try roundTrip(StartConversationRequest.self, without).value.productId == nil)
    }

    @Test func sendAndMarkReadRoundTrip() throws {
        let send = #"{"body":"Is it still available? 🚲"}"#
        #expect(try roundTrip(SendMessageRequest.self, send).encoded == send)
        let read = #"{"upTo":"m9"}"#
        #expect(try roundTrip(MarkReadRequest.self, read).encoded == read)
    }

    @Test func markNotificationsReadTakesIdsOrAll() throws {
        let ids = #"{"ids":["n1","n2"]}"#
        #expect(try roundTrip(MarkNotificationsReadRequest.self, ids).value.ids == ["n1", "n2"])
        let all = #"{"all":true}"#
        #expect(try roundTrip(MarkNotificationsReadRequest.self, all).value.all == true)
    }
}

@Suite("Live events use the {type, data} envelope")
struct LiveEventJSONTests {
    @Test func messageCreatedCarriesTheMessage() throws {
        let json =
            #"{"data":{"body":"hi","conversationId":"c1","createdAt":"2026-01-02T03:04:05.006Z","id":"m1","kind":"text","senderId":"u1"},"type":"message.created"}"#
        let (event, encoded) = try roundTrip(LiveEvent.self, json)
        guard case .messageCreated(let message) = event else {
            Issue.record("expected message.created, got \(event)")
            return
        }
        #expect(message.id == "m1")
        #expect(encoded == json)
    }

    @Test func conversationReadAndNotificationCreatedRoundTrip() throws {
        let read = #"{"data":{"conversationId":"c1","upTo":"m1","userId":"u2"},"type":"conversation.read"}"#
        #expect(try roundTrip(LiveEvent.self, read).value.type == LiveEvent.Kind.conversationRead)
        #expect(try roundTrip(LiveEvent.self, read).encoded == read)
        let notification =
            #"{"data":{"conversationId":"c1","createdAt":"2026-01-02T03:04:05.006Z","id":"n1","messageId":"m1","productId":null,"read":false,"type":"message.new"},"type":"notification.created"}"#
        #expect(try roundTrip(LiveEvent.self, notification).encoded == notification)
    }

    @Test func readyNamesTheSocketsUser() throws {
        let json = #"{"data":{"userId":"u1"},"type":"ready"}"#
        let (event, encoded) = try roundTrip(LiveEvent.self, json)
        #expect(event == .ready(Ready(userId: "u1")))
        #expect(encoded == json)
    }

    @Test func unknownEventTypeFailsToDecode() {
        #expect(throws: DecodingError.self) {
            try roundTrip(LiveEvent.self, #"{"data":{},"type":"user.exploded"}"#)
        }
    }
}

@Suite("Route templates")
struct APIRouteTests {
    @Test func pathFillsParametersInOrderAndEscapesThem() {
        #expect(APIRoutes.messages.path("c1") == "/v1/conversations/c1/messages")
        #expect(APIRoutes.user.path("a/b") == "/v1/users/a%2Fb")
    }

    @Test func everyRouteIsListedOnceInAll() {
        #expect(Set(APIRoutes.all).count == APIRoutes.all.count)
        #expect(APIRoutes.all.count == 58)
    }
}
