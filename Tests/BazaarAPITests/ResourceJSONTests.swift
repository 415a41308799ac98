import Foundation
import Testing

@testable import BazaarAPI

@Suite("Resource bodies keep their wire form")
struct ResourceJSONTests {
    @Test func userWithNullsDecodesAndEncodesBackIdentically() throws {
        let json =
            #"{"bio":null,"createdAt":"2026-11-22T03:22:12.123Z","displayName":"Ada","id":"u1","photoURL":null,"ratingAverage":null,"ratingCount":0,"username":"ada"}"#
        let (user, encoded) = try roundTrip(User.self, json)
        #expect(user.bio == nil)
        #expect(user.photoURL == nil)
        #expect(abs(user.createdAt.timeIntervalSince1970 - 1_795_317_732.123) < 0.0005)
        #expect(encoded == json)
    }

    @Test func userWithPhotoKeepsItsRelativeURL() throws {
        let json =
            #"{"bio":"Sells bikes","createdAt":"2026-11-22T03:22:12.000Z","displayName":"Ada","id":"u1","photoURL":"/v1/users/u1/photo?v=ab12","ratingAverage":null,"ratingCount":0,"username":"ada"}"#
        let (user, encoded) = try roundTrip(User.self, json)
        #expect(user.photoURL == "/v1/users/u1/photo?v=ab12")
        #expect(encoded == json)
    }

    @Test func datesWithoutFractionalSecondsAreAccepted() throws {
        let json =
            #"{"bio":null,"createdAt":"2026-11-22T03:22:12Z","displayName":"Ada","id":"u1","photoURL":null,"ratingAverage":null,"ratingCount":0,"username":"ada"}"#
        let (user, encoded) = try roundTrip(User.self, json)
        #expect(user.createdAt == Date(timeIntervalSince1970: 1_795_317_732))
        #expect(encoded.contains(#""createdAt":"2026-11-22T03:22:12.000Z""#))
    }

    @Test func datesAreWrittenRoundedToTheNearestMillisecond() throws {
        let encoder = BazaarJSON.makeEncoder()
        let early = try encoder.encode(Date(timeIntervalSince1970: 1_795_317_732.1234))
        let late = try encoder.encode(Date(timeIntervalSince1970: 1_795_317_732.9996))
        #expect(String(decoding: early, as: UTF8.self) == #""2026-11-22T03:22:12.123Z""#)
        #expect(String(decoding: late, as: UTF8.self) == #""2026-11-22T03:22:13.000Z""#)
        #expect(BazaarJSON.formatDate(Date(timeIntervalSince1970: 0.05)) == "1970-01-01T00:00:00.050Z")
    }

    @Test func aDateThatIsNotISO8601FailsToDecode() {
        let json =
            #"{"bio":null,"createdAt":"yesterday","displayName":"Ada","id":"u1","photoURL":null,"ratingAverage":null,"ratingCount":0,"username":"ada"}"#
        #expect(throws: DecodingError.self) { try roundTrip(User.self, json) }
    }

    @Test func productRoundTrips() throws {
        let json =
            #"{"createdAt":"2026-01-02T03:04:05.006Z","currency":"EUR","description":"Blue, 54 cm","favouriteCount":3,"id":"p1","photoURLs":["/v1/products/p1/photos/f1"],"photos":[{"fullURL":"/v1/products/p1/photos/f1","height":1365,"id":"f1","mediumURL":"/v1/products/p1/photos/f1?size=medium","thumbURL":"/v1/products/p1/photos/f1?size=thumb","width":2048}],"priceCents":12000,"sellerId":"u1","status":"reserved","title":"Road bike","updatedAt":"2026-01-03T03:04:05.006Z"}"#
        let (product, encoded) = try roundTrip(Product.self, json)
        #expect(product.priceCents == 12000)
        #expect(product.photoURLs == ["/v1/products/p1/photos/f1"])
        #expect(
            product.photos.first?.width == 2048 && product.photos.first?.url(.thumb).hasSuffix("?size=thumb") == true)
        #expect(product.status == .reserved && product.favouriteCount == 3)
        #expect(product.updatedAt > product.createdAt)
        #expect(encoded == json)
    }

    @Test("a product from a server before sizes reads each photo URL as a photo of unknown size, every size that URL")
    func productWithoutSizesDecodesItsURLsAsPhotos() throws {
        let json =
            #"{"createdAt":"2026-01-02T03:04:05.006Z","currency":"EUR","description":"","id":"p1","photoURLs":["/v1/products/p1/photos/f1"],"priceCents":1,"sellerId":"u1","title":"Old"}"#
        let (product, _) = try roundTrip(Product.self, json)
        let photo = try #require(product.photos.first)
        #expect(photo.id == "f1" && photo.width == nil && photo.height == nil)
        #expect(PhotoSize.allCases.map(photo.url) == Array(repeating: "/v1/products/p1/photos/f1", count: 3))
    }

    @Test("a product from a server before listings had a life reads as available, unchanged and unsaved")
    func productWithoutItsLifeDecodesAsNew() throws {
        let json =
            #"{"createdAt":"2026-01-02T03:04:05.006Z","currency":"EUR","description":"","id":"p1","photoURLs":[],"priceCents":1,"sellerId":"u1","title":"Old"}"#
        let (product, _) = try roundTrip(Product.self, json)
        #expect(product.status == .available && product.favouriteCount == 0 && product.updatedAt == product.createdAt)
        #expect(throws: DecodingError.self) {
            try roundTrip(Product.self, json.replacingOccurrences(of: #""title""#, with: #""status":"lost","title""#))
        }
    }

    @Test("a product from a server before photos decodes with none")
    func productWithoutPhotoURLsDecodesWithNone() throws {
        let json =
            #"{"createdAt":"2026-01-02T03:04:05.006Z","currency":"EUR","description":"","id":"p1","priceCents":1,"sellerId":"u1","title":"Old"}"#
        let (product, encoded) = try roundTrip(Product.self, json)
        #expect(product.photoURLs.isEmpty)
        #expect(encoded.contains(#""photoURLs":[]"#))
    }

    @Test func conversationWithoutProductOrMessagesWritesNulls() throws {
        let json =
            #"{"blocked":false,"id":"c1","lastMessage":null,"otherUser":{"bio":null,"createdAt":"2026-01-02T03:04:05.006Z","displayName":"Bo","id":"u2","photoURL":null,"ratingAverage":null,"ratingCount":0,"username":"bo"},"product":null,"unreadCount":0,"updatedAt":"2026-01-02T03:04:05.006Z"}"#
        let (conversation, encoded) = try roundTrip(Conversation.self, json)
        #expect(conversation.product == nil)
        #expect(conversation.lastMessage == nil)
        #expect(encoded == json)
    }

    @Test func conversationWithEverythingRoundTrips() throws {
        let json =
            #"{"blocked":true,"id":"c1","lastMessage":{"body":"Still available?","conversationId":"c1","createdAt":"2026-01-02T03:04:05.006Z","id":"m1","kind":"text","senderId":"u2"},"otherUser":{"bio":"hi","createdAt":"2026-01-02T03:04:05.006Z","displayName":"Bo","id":"u2","photoURL":null,"ratingAverage":null,"ratingCount":0,"username":"bo"},"product":{"createdAt":"2026-01-02T03:04:05.006Z","currency":"EUR","description":"","favouriteCount":0,"id":"p1","photoURLs":[],"photos":[],"priceCents":0,"sellerId":"u1","status":"available","title":"Free chair","updatedAt":"2026-01-02T03:04:05.006Z"},"unreadCount":3,"updatedAt":"2026-01-02T03:04:05.006Z"}"#
        let (conversation, encoded) = try roundTrip(Conversation.self, json)
        #expect(conversation.unreadCount == 3)
        #expect(conversation.lastMessage?.body == "Still available?")
        #expect(conversation.blocked)
        #expect(encoded == json)
    }

    @Test func aConversationFromAServerBeforeBlockingIsNotBlocked() throws {
        let json =
            #"{"id":"c1","lastMessage":null,"otherUser":{"bio":null,"createdAt":"2026-01-02T03:04:05.006Z","displayName":"Bo","id":"u2","photoURL":null,"username":"bo"},"product":null,"unreadCount":0,"updatedAt":"2026-01-02T03:04:05.006Z"}"#
        let conversation = try BazaarJSON.makeDecoder().decode(Conversation.self, from: Data(json.utf8))
        #expect(!conversation.blocked)
    }

    @Test func aRemovedMessageSaysSoAndAnOrdinaryOneLeavesTheFieldOut() throws {
        let removed =
            #"{"body":"This message was removed by a moderator.","conversationId":"c1","createdAt":"2026-01-02T03:04:05.006Z","id":"m1","kind":"text","removed":true,"senderId":"u2"}"#
        let (message, encoded) = try roundTrip(Message.self, removed)
        #expect(message.removed && message.body == Message.removedBody)
        #expect(encoded == removed)
        let plain = try BazaarJSON.makeEncoder().encode(
            Message(
                id: "m2", conversationId: "c1", senderId: "u2", body: "hi", createdAt: Date(timeIntervalSince1970: 0)))
        #expect(!String(decoding: plain, as: UTF8.self).contains("removed"))
    }

    @Test func notificationWritesNullIdsWhenAboutNothing() throws {
        let json =
            #"{"conversationId":null,"createdAt":"2026-01-02T03:04:05.006Z","id":"n1","messageId":null,"productId":null,"read":false,"type":"message.new"}"#
        let (notification, encoded) = try roundTrip(Notification.self, json)
        #expect(notification.type == NotificationType.newMessage)
        #expect(encoded == json)
    }

    @Test func notificationWithoutTheOptionalKeysDecodes() throws {
        let json = #"{"createdAt":"2026-01-02T03:04:05.006Z","id":"n1","read":true,"type":"message.new"}"#
        let (notification, _) = try roundTrip(Notification.self, json)
        #expect(notification.conversationId == nil)
        #expect(notification.read)
    }

    @Test func lastPageWritesNullCursor() throws {
        let json =
            #"{"items":[{"body":"hi","conversationId":"c1","createdAt":"2026-01-02T03:04:05.006Z","id":"m1","kind":"text","senderId":"u1"}],"nextCursor":null}"#
        let (page, encoded) = try roundTrip(Page<Message>.self, json)
        #expect(page.items.count == 1)
        #expect(page.nextCursor == nil)
        #expect(encoded == json)
    }

    @Test func pageWithCursorRoundTrips() throws {
        let json = #"{"items":[],"nextCursor":"b3BhcXVl"}"#
        let (page, encoded) = try roundTrip(Page<Product>.self, json)
        #expect(page.nextCursor == "b3BhcXVl")
        #expect(encoded == json)
    }
}
