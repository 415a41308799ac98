import BazaarAPI
import BazaarDomain
import BazaarServer
import Foundation
import NIOHTTP1
import TestSupport
import Testing
import ZIPFoundation

/// The account as its owner keeps it, over HTTP on both engines: the password, the sessions, the
/// export and the deletion.
@Suite("The account")
struct AccountTests {
    @Test(
        "a password change ends every other session at once (refresh, access token, socket) and keeps this one",
        arguments: StorageKind.available)
    func changingThePasswordEndsTheOtherSessions(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let laptop = try await client.register("ada")
            let phone = try await client.login("ada")
            let socket = try await EventSocket.connect(
                baseURL: client.baseURL, credential: .header(phone.tokens.accessToken))
            let change = ChangePasswordRequest(currentPassword: "password123", newPassword: "correct horse")
            expectError(
                try await client.send(
                    .PUT, APIRoutes.changePassword.template,
                    json: ChangePasswordRequest(currentPassword: "password123", newPassword: "short"),
                    token: laptop.tokens.accessToken), 422, code: "invalid_field")
            expectError(
                try await client.send(
                    .PUT, APIRoutes.changePassword.template,
                    json: ChangePasswordRequest(currentPassword: "wrong pass", newPassword: "correct horse"),
                    token: laptop.tokens.accessToken), 403, code: "wrong_password")
            #expect(socket.isOpen, "a refused change ends nothing")
            expectStatus(
                try await client.send(
                    .PUT, APIRoutes.changePassword.template, json: change, token: laptop.tokens.accessToken), 204)

            let close = await socket.serverClosed(within: .seconds(2))
            #expect(close?.code == 1008, "closed with 1008, got \(String(describing: close))")
            expectError(try await client.get(APIRoutes.me.template, token: phone.tokens.accessToken), 401)
            expectError(
                try await client.post(
                    APIRoutes.refresh.template, RefreshRequest(refreshToken: phone.tokens.refreshToken)), 401)
            expectStatus(try await client.get(APIRoutes.me.template, token: laptop.tokens.accessToken), 200)
            expectStatus(
                try await client.post(
                    APIRoutes.refresh.template, RefreshRequest(refreshToken: laptop.tokens.refreshToken)), 200)
            expectError(
                try await client.post(
                    APIRoutes.login.template, LoginRequest(username: "ada", password: "password123")), 401)
            _ = try await client.login("ada", password: "correct horse")
        }
    }

    @Test(
        "wrong current passwords count toward the sign-in throttle",
        arguments: StorageKind.available)
    func wrongPasswordsAreThrottled(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let ada = try await client.register("ada")
            var statuses: [Int] = []
            for attempt in 0..<6 {
                statuses.append(
                    try await client.send(
                        .PUT, APIRoutes.changePassword.template,
                        json: ChangePasswordRequest(currentPassword: "guess \(attempt)", newPassword: "new password"),
                        token: ada.tokens.accessToken
                    ).status)
            }
            #expect(statuses == [403, 403, 403, 403, 403, 429], "\(statuses)")
            // The same throttle guards signing in.
            let login = try await client.post(
                APIRoutes.login.template, LoginRequest(username: "ada", password: "password123"))
            expectError(login, 429)
        }
    }

    @Test(
        "the sessions list what signed in and when; ending one (or all others) revokes it at once",
        arguments: StorageKind.available)
    func sessionsAreListedAndEnded(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let laptop = try await client.register("ada")
            let phone = try await client.post(
                APIRoutes.login.template, LoginRequest(username: "ada", password: "password123"),
                headers: [("User-Agent", "BazaarPhone/1.0 " + String(repeating: "x", count: 300))]
            ).decode(AuthResponse.self)
            let tablet = try await client.login("ada")
            let bob = try await client.register("bob")
            let sessions = try await client.get(APIRoutes.sessions.template, token: laptop.tokens.accessToken)
                .decode(AccountSessions.self).items
            #expect(sessions.count == 3)
            #expect(sessions.filter(\.current).count == 1)
            let phoneSession = try #require(sessions.first { $0.userAgent?.hasPrefix("BazaarPhone/1.0") == true })
            #expect(phoneSession.userAgent?.count == 200, "a user agent is kept to 200 characters")
            let current = try #require(sessions.first { $0.current })

            // Someone else's session, or one ended already, is not the caller's to end.
            expectError(
                try await client.send(
                    .DELETE, APIRoutes.endSession.path(phoneSession.id), token: bob.tokens.accessToken), 404)
            expectStatus(
                try await client.send(
                    .DELETE, APIRoutes.endSession.path(phoneSession.id), token: laptop.tokens.accessToken), 204)
            expectError(
                try await client.send(
                    .DELETE, APIRoutes.endSession.path(phoneSession.id), token: laptop.tokens.accessToken), 404)
            expectError(try await client.get(APIRoutes.me.template, token: phone.tokens.accessToken), 401)
            expectStatus(try await client.get(APIRoutes.me.template, token: tablet.tokens.accessToken), 200)

            expectStatus(
                try await client.send(.DELETE, APIRoutes.endOtherSessions.template, token: laptop.tokens.accessToken),
                204)
            expectError(try await client.get(APIRoutes.me.template, token: tablet.tokens.accessToken), 401)
            let left = try await client.get(APIRoutes.sessions.template, token: laptop.tokens.accessToken)
                .decode(AccountSessions.self).items
            #expect(left.map(\.id) == [current.id])
        }
    }

    @Test(
        "the export holds the user's own data and nothing of anyone else's conversations",
        arguments: StorageKind.available)
    func theExportIsTheUsersOwn(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let deal = try await OfferTests.Deal.make(client)
            let (seller, buyer) = (deal.seller, deal.buyer)
            expectStatus(
                try await client.send(
                    .PATCH, APIRoutes.updateMe.template, json: UpdateProfileRequest(bio: "Collector of chairs"),
                    token: buyer.tokens.accessToken), 200)
            _ = try await client.sendMessage("Mine, please", in: deal.conversation.id, token: buyer.tokens.accessToken)
            _ = try await client.offer(12_000, in: deal.conversation, by: buyer, key: "o")
            _ = try await client.sendMessage(
                "Secret between the rival and the seller", in: deal.rivalConversation.id,
                token: deal.rival.tokens.accessToken)
            let response = try await client.get(APIRoutes.exportAccount.template, token: buyer.tokens.accessToken)
            expectStatus(response, 200)
            #expect(response.header("Content-Type") == "application/zip")
            let archive = try Archive(data: response.body, accessMode: .read)
            var files: [String: Data] = [:]
            for entry in archive {
                var data = Data()
                _ = try archive.extract(entry) { data.append($0) }
                files[entry.path] = data
            }
            #expect(
                Set(files.keys) == [
                    "profile.json", "listings.json", "conversations.json", "messages.json", "offers.json",
                    "favourites.json", "reviews-written.json", "reviews-received.json", "notifications.json",
                    "sessions.json",
                ])
            let decoder = BazaarJSON.makeDecoder()
            let profile = try decoder.decode(User.self, from: try #require(files["profile.json"]))
            #expect(profile.id == buyer.user.id && profile.bio == "Collector of chairs")
            let messages = try decoder.decode([Message].self, from: try #require(files["messages.json"]))
            #expect(messages.map(\.body) == ["Mine, please", "Offered 120.00 EUR"])
            let offers = try decoder.decode([Offer].self, from: try #require(files["offers.json"]))
            #expect(offers.map(\.amountCents) == [12_000])
            let everything = files.values.map { String(decoding: $0, as: UTF8.self) }.joined()
            #expect(!everything.contains("Secret between"), "another's conversation is not in the export")
            #expect(!everything.contains("password"), "no hash, no token")
            // The seller's export has their listing.
            let sellers = try await client.get(APIRoutes.exportAccount.template, token: seller.tokens.accessToken)
            let listings = try Archive(data: sellers.body, accessMode: .read)
            let entry = try #require(listings["listings.json"])
            var listed = Data()
            _ = try listings.extract(entry) { listed.append($0) }
            #expect(try decoder.decode([Product].self, from: listed).map(\.id) == [deal.product.id])
        }
    }

    @Test(
        "deleting the account: the password asked, every session ended, shown as Deleted user, the name kept from everyone",
        arguments: StorageKind.available)
    func deletingTheAccount(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let deal = try await OfferTests.Deal.make(client)
            let (seller, buyer) = (deal.seller, deal.buyer)
            let said = try await client.sendMessage(
                "Is it free?", in: deal.conversation.id, token: seller.tokens.accessToken
            ).decode(Message.self)
            let socket = try await EventSocket.connect(
                baseURL: client.baseURL, credential: .header(seller.tokens.accessToken))
            expectError(
                try await client.send(
                    .DELETE, APIRoutes.deleteAccount.template, json: DeleteAccountRequest(password: "nope nope"),
                    token: seller.tokens.accessToken), 403, code: "wrong_password")
            expectStatus(
                try await client.send(
                    .DELETE, APIRoutes.deleteAccount.template, json: DeleteAccountRequest(password: "password123"),
                    token: seller.tokens.accessToken), 204)

            let close = await socket.serverClosed(within: .seconds(2))
            #expect(close?.code == 1008, "closed with 1008, got \(String(describing: close))")
            expectError(try await client.get(APIRoutes.me.template, token: seller.tokens.accessToken), 401)
            expectError(try await client.get(APIRoutes.user.path(seller.user.id)), 404)
            expectError(try await client.get(APIRoutes.product.path(deal.product.id)), 404)
            // The other party keeps the conversation and its messages, with a Deleted user.
            let conversation = try await client.get(
                APIRoutes.conversation.path(deal.conversation.id), token: buyer.tokens.accessToken
            ).decode(Conversation.self)
            #expect(conversation.otherUser == .deleted(id: seller.user.id, createdAt: seller.user.createdAt))
            #expect(conversation.product == nil)
            #expect(try await client.timeline(deal.conversation, as: buyer).contains(said))
            // Nothing more is written to who is gone (no notification rows for an erased account).
            expectError(
                try await client.sendMessage("Still there?", in: deal.conversation.id, token: buyer.tokens.accessToken),
                403, code: "blocked")
            let register = try await client.post(
                APIRoutes.register.template,
                RegisterRequest(username: seller.user.username, password: "password123", displayName: "Again"))
            expectError(register, 409, code: "username_taken")
            expectError(
                try await client.post(
                    APIRoutes.register.template,
                    RegisterRequest(username: User.deletedUsername, password: "password123", displayName: "D")),
                409, code: "username_taken")
            expectError(
                try await client.post(
                    APIRoutes.login.template, LoginRequest(username: seller.user.username, password: "password123")),
                401, code: "invalid_credentials")
            // Nobody can block, report or write to who is gone.
            expectError(
                try await client.send(.PUT, APIRoutes.blockUser.path(seller.user.id), token: buyer.tokens.accessToken),
                404)
            expectError(
                try await client.post(
                    APIRoutes.startConversation.template, StartConversationRequest(userId: seller.user.id),
                    token: buyer.tokens.accessToken), 422)
        }
    }

    @Test("after a deletion, no byte of the bio, the name or the photo stays in the SQLite file or its WAL")
    func anErasedAccountLeavesNothingInTheSQLiteFile() async throws {
        try await StorageKind.sqlite.withConfiguration { configuration in
            let bio = "Ask me about my zebra-striped armchair \(UUID().uuidString)"
            let name = "Quintessa Vandermeer-\(UUID().uuidString.prefix(8))"
            let secret = "GPS-\(UUID().uuidString)"
            try await BazaarTestHarness.withServer(configuration: configuration) { client in
                let ada = try await client.register("ada", displayName: name)
                let token = ada.tokens.accessToken
                expectStatus(
                    try await client.send(
                        .PATCH, APIRoutes.updateMe.template, json: UpdateProfileRequest(bio: bio), token: token), 200)
                let uploaded = try await client.send(
                    .PUT, APIRoutes.uploadPhoto.template, rawBody: TestImages.jpegWithMetadata(secret: secret),
                    contentType: "image/jpeg", token: token)
                expectStatus(uploaded, 200)
                let photoURL = try #require(try uploaded.decode(User.self).photoURL)
                // A stretch of each stored size's bytes, from its middle.
                var photos: [Data] = []
                for size in PhotoSize.allCases {
                    let served = try await client.get(size.url(photoURL)).body
                    photos.append(served.subdata(in: served.count / 2..<served.count / 2 + 48))
                }
                let files = [configuration.sqlitePath, configuration.sqlitePath + "-wal"]
                #expect(Self.contains(files, Data(bio.utf8)), "the test's own check finds the bio before")
                #expect(photos.allSatisfy { Self.contains(files, $0) }, "and every size of the photo")
                #expect(!Self.contains(files, Data(secret.utf8)), "the upload's metadata was never stored")
                expectStatus(
                    try await client.send(
                        .DELETE, APIRoutes.deleteAccount.template, json: DeleteAccountRequest(password: "password123"),
                        token: token), 204)
                for needle in [Data(bio.utf8), Data(name.utf8)] + photos {
                    #expect(!Self.contains(files, needle), "\(needle.prefix(24) as NSData) is still there")
                }
            }
        }
    }

    /// Whether any of the files holds `needle`.
    static func contains(_ paths: [String], _ needle: Data) -> Bool {
        paths.contains { path in
            (FileManager.default.contents(atPath: path) ?? Data()).range(of: needle) != nil
        }
    }
}

@Suite("A session's user agent")
struct SessionUserAgentTests {
    @Test("a user agent is kept printable, trimmed and at most 200 characters; nothing left is none")
    func userAgentsAreCleaned() {
        #expect(SessionService.userAgent("Bazaar/1.0 (Linux)\u{7}\u{0}") == "Bazaar/1.0 (Linux)")
        #expect(SessionService.userAgent(String(repeating: "é", count: 250))?.count == 200)
        #expect(SessionService.userAgent(" \u{1}\u{7F} ") == nil)
        #expect(SessionService.userAgent(nil) == nil)
    }
}
