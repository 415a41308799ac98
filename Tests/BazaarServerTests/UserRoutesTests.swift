import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// A small real PNG (320 × 240).
let pngBytes = TestImages.png()
/// A small real JPEG (640 × 480).
let jpegBytes = TestImages.jpeg()

@Suite("User routes")
struct UserRoutesTests {
    @Test func meAndPublicProfileShowTheSameUser() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada", displayName: "Ada L.")
            let me = try await client.get(APIRoutes.me.template, token: ada.tokens.accessToken).decode(User.self)
            let profile = try await client.get(APIRoutes.user.path(ada.user.id)).decode(User.self)
            #expect(ada.user.role == .member, "signing up answers the caller's own view, role included")
            #expect(me == ada.user, "the caller alone learns their role")
            var others = ada.user
            others.role = nil
            #expect(profile == others && profile.role == nil)
            #expect(me.displayName == "Ada L.")
            #expect(me.bio == nil)
            expectError(try await client.get(APIRoutes.user.path("nobody")), 404, code: "not_found")
        }
    }

    @Test func patchChangesOnlyTheFieldsGivenAndAnEmptyBioRemovesIt() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let token = ada.tokens.accessToken
            let withBio = try await client.send(
                .PATCH, APIRoutes.updateMe.template, json: UpdateProfileRequest(bio: "Sells bikes"), token: token)
            expectStatus(withBio, 200)
            #expect(try withBio.decode(User.self).bio == "Sells bikes")
            let renamed = try await client.send(
                .PATCH, APIRoutes.updateMe.template, json: UpdateProfileRequest(displayName: "Countess"), token: token)
            let user = try renamed.decode(User.self)
            #expect(user.displayName == "Countess")
            #expect(user.bio == "Sells bikes")
            let cleared = try await client.send(
                .PATCH, APIRoutes.updateMe.template, json: UpdateProfileRequest(bio: ""), token: token)
            #expect(try cleared.decode(User.self).bio == nil)
            let tooLong = try await client.send(
                .PATCH, APIRoutes.updateMe.template,
                json: UpdateProfileRequest(bio: String(repeating: "b", count: 501)), token: token)
            expectError(tooLong, 422)
        }
    }

    @Test func photoUploadIsServedWithETagAnd304AndItsURLChangesWithThePhoto() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let token = ada.tokens.accessToken
            let upload = try await client.send(
                .PUT, APIRoutes.uploadPhoto.template, rawBody: pngBytes, contentType: "image/png", token: token)
            expectStatus(upload, 200)
            let photoURL = try #require(try upload.decode(User.self).photoURL)
            #expect(photoURL.hasPrefix(APIRoutes.userPhoto.path(ada.user.id)))

            let served = try await client.get(photoURL)
            expectStatus(served, 200)
            #expect(served.header("Content-Type") == "image/jpeg", "re-encoded, whatever was uploaded")
            #expect(served.body != pngBytes)
            #expect(served.header("Cache-Control")?.contains("immutable") == true)
            let etag = try #require(served.header("ETag"))
            let notModified = try await client.get(
                APIRoutes.userPhoto.path(ada.user.id), headers: [("If-None-Match", etag)])
            expectStatus(notModified, 304)
            let thumb = try await client.get(PhotoSize.thumb.url(photoURL))
            expectStatus(thumb, 200)
            #expect(thumb.body.count < served.body.count && thumb.header("ETag") != etag)
            #expect(thumb.header("Cache-Control")?.contains("immutable") == true)
            expectError(try await client.get(photoURL + "&size=huge"), 400, code: "invalid_query")

            let second = try await client.send(
                .PUT, APIRoutes.uploadPhoto.template, rawBody: jpegBytes, contentType: "image/jpeg", token: token)
            let newURL = try #require(try second.decode(User.self).photoURL)
            #expect(newURL != photoURL)
            let changed = try await client.get(
                APIRoutes.userPhoto.path(ada.user.id), headers: [("If-None-Match", etag)])
            expectStatus(changed, 200)
            #expect(changed.header("ETag") != etag)
            let stale = try await client.get(photoURL)
            #expect(stale.header("Cache-Control") == "public, no-cache", "an old version's URL is not cached for long")
        }
    }

    @Test func photoContentIsCheckedNotOnlyItsHeader() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let token = ada.tokens.accessToken
            let text = try await client.send(
                .PUT, APIRoutes.uploadPhoto.template, rawBody: Data("<svg/>".utf8), contentType: "image/png",
                token: token)
            expectError(text, 422, code: "invalid_image")
            let gif = try await client.send(
                .PUT, APIRoutes.uploadPhoto.template, rawBody: Data("GIF89a".utf8), contentType: "image/gif",
                token: token)
            expectError(gif, 415)
            let none = try await client.send(.PUT, APIRoutes.uploadPhoto.template, rawBody: pngBytes, token: token)
            expectError(none, 415)
            expectError(try await client.get(APIRoutes.userPhoto.path(ada.user.id)), 404)
        }
    }

    @Test func photoOver5MiBIs413() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let big = pngBytes + Data(repeating: 0, count: 5 * 1024 * 1024)
            let response = try await client.send(
                .PUT, APIRoutes.uploadPhoto.template, rawBody: big, contentType: "image/png",
                token: ada.tokens.accessToken)
            expectError(response, 413, code: "body_too_large")
            // A JPEG ends at its end marker; what follows is never read.
            let exactly = jpegBytes + Data(repeating: 0, count: 5 * 1024 * 1024 - jpegBytes.count)
            let fits = try await client.send(
                .PUT, APIRoutes.uploadPhoto.template, rawBody: exactly, contentType: "image/jpeg",
                token: ada.tokens.accessToken)
            expectStatus(fits, 200)
        }
    }
}
