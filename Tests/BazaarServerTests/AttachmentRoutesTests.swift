import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// Chat photos over HTTP on every backend: uploaded by a member, sent with a message, seen by the
/// conversation's members only.
@Suite("Chat photos")
struct AttachmentRoutesTests {
    static let photo = TestImages.jpegWithMetadata(width: 1600, height: 1200, secret: "GPS-OF-THE-SELLERS-HOME")

    @Test(
        "a chat photo is seen at every size by the conversation's members once sent, by its uploader before, and by nobody else",
        arguments: StorageKind.available)
    func membersOnly(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let eve = try await client.register("eve")
            let conversation = try await client.startConversation(with: bob.user.id, token: ada.tokens.accessToken)
            let uploaded = try await client.uploadAttachment(
                Self.photo, to: conversation.id, token: ada.tokens.accessToken)
            expectStatus(uploaded, 201)
            let photo = try uploaded.decode(Photo.self)
            #expect(photo.width == 1600 && photo.height == 1200)
            #expect(photo.fullURL == APIRoutes.attachment.path(conversation.id, photo.id))

            func statuses(_ token: String?) async throws -> [Int] {
                var statuses: [Int] = []
                for size in PhotoSize.allCases {
                    statuses.append(try await client.get(photo.url(size), token: token).status)
                }
                return statuses
            }
            #expect(
                try await statuses(ada.tokens.accessToken) == [200, 200, 200], "its uploader sees it before sending")
            #expect(try await statuses(bob.tokens.accessToken) == [404, 404, 404], "not sent yet")

            let sent = try await client.sendMessage(
                "", attachmentIds: [photo.id], in: conversation.id, token: ada.tokens.accessToken)
            expectStatus(sent, 201)
            let message = try sent.decode(Message.self)
            #expect(message.body.isEmpty && message.attachments == [photo])
            let page = try await client.get(APIRoutes.messages.path(conversation.id), token: bob.tokens.accessToken)
                .decode(Page<Message>.self)
            #expect(page.items.first?.attachments == [photo])

            #expect(try await statuses(bob.tokens.accessToken) == [200, 200, 200])
            #expect(
                try await statuses(eve.tokens.accessToken) == [404, 404, 404], "an outsider, whatever URL they hold")
            #expect(try await statuses(nil) == [401, 401, 401])
            let full = try await client.get(photo.fullURL, token: bob.tokens.accessToken)
            #expect(full.header("Cache-Control") == "private, max-age=31536000, immutable")
            #expect(full.body.range(of: Data("GPS-OF-THE-SELLERS-HOME".utf8)) == nil, "no metadata")
            let etag = try #require(full.header("ETag"))
            expectStatus(
                try await client.get(photo.fullURL, token: bob.tokens.accessToken, headers: [("If-None-Match", etag)]),
                304)
            // Another conversation's path with this photo's id is not found either.
            let other = try await client.startConversation(with: eve.user.id, token: ada.tokens.accessToken)
            expectError(
                try await client.get(
                    APIRoutes.attachment.path(other.id, photo.id), token: eve.tokens.accessToken), 404)
        }
    }

    @Test(
        "what a message may not carry is refused with 422, and a replay of a send with photos answers its message",
        arguments: StorageKind.available)
    func refusals(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let eve = try await client.register("eve")
            let token = ada.tokens.accessToken
            let conversation = try await client.startConversation(with: bob.user.id, token: token)
            let elsewhere = try await client.startConversation(with: eve.user.id, token: token)
            var ids: [String] = []
            for _ in 0..<5 {
                ids.append(
                    try await client.uploadAttachment(TestImages.jpeg(), to: conversation.id, token: token)
                        .decode(Photo.self).id)
            }
            let bobs = try await client.uploadAttachment(
                TestImages.jpeg(), to: conversation.id, token: bob.tokens.accessToken
            ).decode(Photo.self)
            let misplaced = try await client.uploadAttachment(TestImages.jpeg(), to: elsewhere.id, token: token)
                .decode(Photo.self)
            for (attachmentIds, why) in [
                (ids, "five photos"), ([ids[0], ids[0]], "one twice"), ([bobs.id], "another's photo"),
                ([misplaced.id], "uploaded to another conversation"), (["not-an-id"], "not an id"),
                ([UUID().uuidString.lowercased()], "no such photo"),
            ] {
                let refused = try await client.sendMessage(
                    "look", attachmentIds: attachmentIds, in: conversation.id, token: token)
                expectError(refused, 422, code: "invalid_field")
                #expect(refused.text.contains("attachmentIds"), "\(why): \(refused.text)")
            }
            expectError(try await client.sendMessage("", in: conversation.id, token: token), 422, code: "invalid_field")

            let key = UUID().uuidString
            let first = try await client.sendMessage(
                "Two of them", attachmentIds: [ids[1], ids[0]], in: conversation.id, token: token, key: key)
            expectStatus(first, 201)
            let message = try first.decode(Message.self)
            #expect(message.attachments.map(\.id) == [ids[1], ids[0]], "in the order given")
            let again = try await client.sendMessage(
                "Two of them", attachmentIds: [ids[1], ids[0]], in: conversation.id, token: token, key: key)
            #expect(try again.decode(Message.self) == message, "the same key answers the same message")
            let resent = try await client.sendMessage(
                "Again", attachmentIds: [ids[0]], in: conversation.id, token: token)
            expectError(resent, 422, code: "invalid_field")

            // Three unsent here and one elsewhere: twelve more reach the sixteen a user may hold.
            for _ in 0..<12 {
                expectStatus(
                    try await client.uploadAttachment(TestImages.png(), to: conversation.id, token: token), 201)
            }
            expectError(
                try await client.uploadAttachment(TestImages.png(), to: conversation.id, token: token), 409,
                code: "too_many_unsent_photos")
            // Uploads: only a member, only an image.
            expectError(
                try await client.uploadAttachment(
                    TestImages.jpeg(), to: conversation.id, token: eve.tokens.accessToken),
                404)
            expectError(
                try await client.uploadAttachment(Data("not a photo".utf8), to: conversation.id, token: token), 422,
                code: "invalid_image")
            expectError(
                try await client.uploadAttachment(
                    TestImages.jpeg(), to: conversation.id, token: token, contentType: "image/gif"),
                415)
        }
    }

    @Test(
        "an erased account's chat photos are gone at every size, and its messages show none; a removed message's too",
        arguments: StorageKind.available)
    func erasedWithTheirAccount(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            let conversation = try await client.startConversation(with: bob.user.id, token: ada.tokens.accessToken)
            let photo = try await client.uploadAttachment(
                TestImages.jpeg(), to: conversation.id, token: ada.tokens.accessToken
            ).decode(Photo.self)
            expectStatus(
                try await client.sendMessage(
                    "the scratch", attachmentIds: [photo.id], in: conversation.id, token: ada.tokens.accessToken), 201)
            expectStatus(try await client.get(photo.thumbURL, token: bob.tokens.accessToken), 200)
            expectStatus(
                try await client.send(
                    .DELETE, APIRoutes.deleteAccount.template, json: DeleteAccountRequest(password: "password123"),
                    token: ada.tokens.accessToken), 204)
            for size in PhotoSize.allCases {
                expectError(try await client.get(photo.url(size), token: bob.tokens.accessToken), 404)
            }
            let page = try await client.get(APIRoutes.messages.path(conversation.id), token: bob.tokens.accessToken)
                .decode(Page<Message>.self)
            #expect(page.items.first?.body == "the scratch" && page.items.first?.attachments == [])
        }
    }
}
