import BazaarAPI
import Foundation
import NIOHTTP1
import TestSupport
import Testing

@Suite("Notification routes")
struct NotificationRoutesTests {
    /// Ada receives `count` messages from Bo; returns Ada, Bo and Ada's notifications.
    func adaWithNotifications(_ client: BazaarTestClient, count: Int) async throws -> (
        AuthResponse, AuthResponse, [BazaarAPI.Notification]
    ) {
        let ada = try await client.register("ada")
        let bo = try await client.register("bob")
        let conversation = try await client.startConversation(with: ada.user.id, token: bo.tokens.accessToken)
        for index in 0..<count {
            expectStatus(
                try await client.sendMessage("n\(index)", in: conversation.id, token: bo.tokens.accessToken), 201)
        }
        let page = try await client.get(APIRoutes.notifications.template + "?limit=100", token: ada.tokens.accessToken)
            .decode(Page<BazaarAPI.Notification>.self)
        return (ada, bo, page.items)
    }

    @Test func markingSomeIdsReadLeavesTheOthersAndIgnoresIdsThatAreNotYours() async throws {
        try await BazaarTestHarness.withServer { client in
            let (ada, bo, notifications) = try await adaWithNotifications(client, count: 3)
            #expect(notifications.count == 3)
            let chosen = notifications[0].id
            expectStatus(
                try await client.post(
                    APIRoutes.markNotificationsRead.template, MarkNotificationsReadRequest(ids: [chosen]),
                    token: ada.tokens.accessToken), 204)
            // Bo naming Ada's notification changes nothing.
            expectStatus(
                try await client.post(
                    APIRoutes.markNotificationsRead.template, MarkNotificationsReadRequest(ids: [notifications[1].id]),
                    token: bo.tokens.accessToken), 204)
            let after = try await client.get(APIRoutes.notifications.template, token: ada.tokens.accessToken).decode(
                Page<BazaarAPI.Notification>.self)
            #expect(after.items.filter(\.read).map(\.id) == [chosen])
        }
    }

    @Test func markingAllReadReadsEverything() async throws {
        try await BazaarTestHarness.withServer { client in
            let (ada, _, _) = try await adaWithNotifications(client, count: 2)
            expectStatus(
                try await client.post(
                    APIRoutes.markNotificationsRead.template, MarkNotificationsReadRequest(all: true),
                    token: ada.tokens.accessToken), 204)
            let after = try await client.get(APIRoutes.notifications.template, token: ada.tokens.accessToken).decode(
                Page<BazaarAPI.Notification>.self)
            #expect(after.items.count == 2)
            #expect(after.items.allSatisfy { $0.read })
        }
    }

    @Test func aBodyWithNeitherIdsNorAllIs422() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let response = try await client.post(
                APIRoutes.markNotificationsRead.template, MarkNotificationsReadRequest(), token: ada.tokens.accessToken)
            expectError(response, 422)
        }
    }

    @Test("more than 500 ids is 422, also beside all: true (a body the contract calls invalid)")
    func tooManyIdsAre422EvenWithAll() async throws {
        try await BazaarTestHarness.withServer { client in
            let ada = try await client.register("ada")
            let ids = (0..<501).map { "n\($0)" }
            for body in [MarkNotificationsReadRequest(ids: ids), MarkNotificationsReadRequest(ids: ids, all: true)] {
                expectError(
                    try await client.post(
                        APIRoutes.markNotificationsRead.template, body, token: ada.tokens.accessToken), 422,
                    code: "invalid_field")
            }
        }
    }

    @Test func notificationsPageWithCursorsWithoutGapsOrRepeats() async throws {
        try await BazaarTestHarness.withServer { client in
            let (ada, _, all) = try await adaWithNotifications(client, count: 5)
            var seen: [String] = []
            var cursor: String?
            repeat {
                let query = "?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.get(APIRoutes.notifications.template + query, token: ada.tokens.accessToken)
                    .decode(Page<BazaarAPI.Notification>.self)
                seen += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == all.map(\.id))
            // A cursor from another list is not accepted here.
            let foreign = try await client.get(
                APIRoutes.notifications.template + "?cursor=p.1", token: ada.tokens.accessToken)
            expectError(foreign, 400, code: "invalid_cursor")
        }
    }
}
