import BazaarAPI
import BazaarServer
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// Reports and the moderators' queue over HTTP, on both engines: who may report what, who may
/// read the queue, and what each action does.
@Suite("Reports and moderation")
struct ModerationTests {
    /// A marketplace with a moderator, a reporter and someone reported, in one conversation.
    struct Scene {
        let moderator: AuthResponse
        let reporter: AuthResponse
        let offender: AuthResponse
        let product: Product
        let conversation: Conversation
        let messages: [Message]

        static func make(_ client: BazaarTestClient, configuration: BazaarServerConfiguration) async throws -> Scene {
            let moderator = try await client.register("mona")
            try await configuration.nameModerator("mona")
            let reporter = try await client.register("rita")
            let offender = try await client.register("oscar")
            let product = try await client.createProduct("Genuine Rolex", token: offender.tokens.accessToken)
            let conversation = try await client.startConversation(
                with: offender.user.id, productId: product.id, token: reporter.tokens.accessToken)
            var messages: [Message] = []
            for (index, line) in ["Is it real?", "Sure, pay by gift card", "Hmm", "Now or never"].enumerated() {
                let author = index % 2 == 0 ? reporter : offender
                messages.append(
                    try await client.sendMessage(line, in: conversation.id, token: author.tokens.accessToken)
                        .decode(Message.self))
            }
            return Scene(
                moderator: moderator, reporter: reporter, offender: offender, product: product,
                conversation: conversation, messages: messages)
        }

        /// Reports `type` `id` as the reporter.
        func report(_ type: ReportSubjectType, _ id: String, _ client: BazaarTestClient, note: String? = nil)
            async throws -> TestResponse
        {
            try await client.post(
                APIRoutes.createReport.template,
                CreateReportRequest(subjectType: type, subjectId: id, reason: .scam, note: note),
                token: reporter.tokens.accessToken)
        }

        /// Resolves `report` with `action` as the moderator.
        func resolve(_ report: Report, _ action: ModerationAction, _ client: BazaarTestClient) async throws
            -> TestResponse
        {
            try await client.post(
                APIRoutes.resolveReport.path(report.id), ResolveReportRequest(action: action, note: "seen it"),
                token: moderator.tokens.accessToken)
        }
    }

    /// Runs `body` against a server on `storage` with a ``Scene``.
    static func withScene(
        on storage: StorageKind, _ body: (BazaarTestClient, Scene, BazaarServerConfiguration) async throws -> Void
    ) async throws {
        try await storage.withConfiguration { configuration in
            try await BazaarTestHarness.withServer(configuration: configuration) { client in
                try await body(client, try await Scene.make(client, configuration: configuration), configuration)
            }
        }
    }

    @Test(
        "a member reports what they can see, once while it is open, never their own",
        arguments: StorageKind.available)
    func reportsAreOfWhatTheReporterSees(storage: StorageKind) async throws {
        try await Self.withScene(on: storage) { client, scene, _ in
            let made = try await scene.report(.message, scene.messages[1].id, client, note: "asks for gift cards")
            expectStatus(made, 201)
            let report = try made.decode(Report.self)
            #expect(report.status == .open && report.action == nil && report.note == "asks for gift cards")
            let again = try await scene.report(.message, scene.messages[1].id, client)
            expectStatus(again, 200)
            #expect(try again.decode(Report.self) == report)
            expectStatus(try await scene.report(.product, scene.product.id, client), 201)
            expectStatus(try await scene.report(.user, scene.offender.user.id, client), 201)

            // A message of a conversation the reporter is not in, what does not exist, what is theirs.
            let stranger = try await client.register("sue")
            let elsewhere = try await client.startConversation(
                with: scene.offender.user.id, token: stranger.tokens.accessToken)
            let hidden = try await client.sendMessage("psst", in: elsewhere.id, token: stranger.tokens.accessToken)
                .decode(Message.self)
            expectError(try await scene.report(.message, hidden.id, client), 404)
            expectError(try await scene.report(.product, UUID().uuidString.lowercased(), client), 404)
            expectError(try await scene.report(.user, "not an id", client), 404)
            expectError(try await scene.report(.message, scene.messages[0].id, client), 422, code: "own_subject")
            expectError(
                try await scene.report(
                    .user, scene.offender.user.id, client, note: String(repeating: "x", count: 1001)),
                422, code: "invalid_field")
            let badReason = try await client.send(
                .POST, APIRoutes.createReport.template,
                rawBody: Data(
                    #"{"subjectType":"user","subjectId":"\#(scene.offender.user.id)","reason":"meh"}"#.utf8),
                contentType: "application/json", token: scene.reporter.tokens.accessToken)
            expectError(badReason, 400)
            let mine = try await client.get(APIRoutes.myReports.template, token: scene.reporter.tokens.accessToken)
                .decode(Page<Report>.self).items
            #expect(mine.count == 3 && mine.last == report)
        }
    }

    @Test(
        "only a moderator reads the queue, and reads a message's report with the messages around it",
        arguments: StorageKind.available)
    func theQueueIsTheModeratorsAlone(storage: StorageKind) async throws {
        try await Self.withScene(on: storage) { client, scene, _ in
            let report = try await scene.report(.message, scene.messages[1].id, client).decode(Report.self)
            for member in [scene.reporter, scene.offender] {
                let token = member.tokens.accessToken
                expectError(try await client.get(APIRoutes.moderationReports.template, token: token), 404)
                expectError(try await client.get(APIRoutes.moderationReport.path(report.id), token: token), 404)
                expectError(
                    try await client.post(
                        APIRoutes.resolveReport.path(report.id), ResolveReportRequest(action: .dismiss), token: token),
                    404)
            }
            let token = scene.moderator.tokens.accessToken
            let queue = try await client.get(APIRoutes.moderationReports.template, token: token)
                .decode(Page<Report>.self)
            #expect(queue.items == [report])
            expectError(try await client.get(APIRoutes.moderationReports.template + "?status=odd", token: token), 422)
            let item = try await client.get(APIRoutes.moderationReport.path(report.id), token: token)
                .decode(ModerationItem.self)
            #expect(item.report == report)
            #expect(item.reporter.id == scene.reporter.user.id && item.subjectUser.id == scene.offender.user.id)
            #expect(item.messages == scene.messages, "the reported message with those around it, oldest first")
            #expect(item.resolution == nil)
        }
    }

    @Test(
        "dismissing resolves the report once, records who and why, and tells the reporter",
        arguments: StorageKind.available)
    func dismissingIsRecordedAndTold(storage: StorageKind) async throws {
        try await Self.withScene(on: storage) { client, scene, _ in
            let report = try await scene.report(.user, scene.offender.user.id, client).decode(Report.self)
            let resolved = try await scene.resolve(report, .dismiss, client)
            expectStatus(resolved, 200)
            #expect(try resolved.decode(Report.self).status == .resolved)
            #expect(try resolved.decode(Report.self).action == .dismiss)
            expectError(try await scene.resolve(report, .suspendUser, client), 409, code: "report_resolved")
            let token = scene.moderator.tokens.accessToken
            let item = try await client.get(APIRoutes.moderationReport.path(report.id), token: token)
                .decode(ModerationItem.self)
            #expect(item.resolution?.moderatorId == scene.moderator.user.id)
            #expect(item.resolution?.action == .dismiss && item.resolution?.note == "seen it")
            let resolvedQueue = try await client.get(
                APIRoutes.moderationReports.template + "?status=resolved", token: token
            ).decode(Page<Report>.self).items
            #expect(resolvedQueue.map(\.id) == [report.id])
            #expect(
                try await client.get(APIRoutes.moderationReports.template, token: token)
                    .decode(Page<Report>.self).items.isEmpty)
            let told = try await client.get(APIRoutes.notifications.template, token: scene.reporter.tokens.accessToken)
                .decode(Page<BazaarAPI.Notification>.self).items.first
            #expect(told?.type == NotificationType.reportResolved && told?.reportId == report.id)
            let mine = try await client.get(APIRoutes.myReports.template, token: scene.reporter.tokens.accessToken)
                .decode(Page<Report>.self).items
            #expect(mine.first?.status == .resolved && mine.first?.action == .dismiss)
        }
    }

    @Test(
        "removing a message replaces its text for both members; an action must fit its subject",
        arguments: StorageKind.available)
    func removingAMessage(storage: StorageKind) async throws {
        try await Self.withScene(on: storage) { client, scene, _ in
            let reported = scene.messages[1]
            let report = try await scene.report(.message, reported.id, client).decode(Report.self)
            expectError(try await scene.resolve(report, .removeProduct, client), 422, code: "invalid_action")
            let longNote = try await client.post(
                APIRoutes.resolveReport.path(report.id),
                ResolveReportRequest(action: .removeMessage, note: String(repeating: "x", count: 1001)),
                token: scene.moderator.tokens.accessToken)
            expectError(longNote, 422, code: "invalid_field")
            expectStatus(try await scene.resolve(report, .removeMessage, client), 200)
            for member in [scene.reporter, scene.offender] {
                let lines = try await client.timeline(scene.conversation, as: member)
                let removed = lines.first { $0.id == reported.id }
                #expect(removed?.removed == true && removed?.body == Message.removedBody)
                #expect(lines.filter(\.removed).count == 1, "only the reported message")
            }
        }
    }

    @Test(
        "removing a listing takes it down and resolves every open report of it",
        arguments: StorageKind.available)
    func removingAListing(storage: StorageKind) async throws {
        try await Self.withScene(on: storage) { client, scene, _ in
            let first = try await scene.report(.product, scene.product.id, client).decode(Report.self)
            let second = try await client.post(
                APIRoutes.createReport.template,
                CreateReportRequest(subjectType: .product, subjectId: scene.product.id, reason: .prohibited),
                token: scene.moderator.tokens.accessToken
            ).decode(Report.self)
            expectError(try await scene.resolve(first, .removeMessage, client), 422, code: "invalid_action")
            expectStatus(try await scene.resolve(first, .removeProduct, client), 200)
            expectError(try await client.get(APIRoutes.product.path(scene.product.id)), 404)
            expectError(try await scene.resolve(second, .dismiss, client), 409, code: "report_resolved")
            let queue = try await client.get(
                APIRoutes.moderationReports.template + "?status=resolved", token: scene.moderator.tokens.accessToken
            ).decode(Page<Report>.self).items
            #expect(Set(queue.map(\.id)) == [first.id, second.id])
            #expect(queue.allSatisfy { $0.action == .removeProduct })
        }
    }

    @Test(
        "a suspension signs the user out everywhere at once, hides their listings and refuses their sign-ins",
        arguments: StorageKind.available)
    func suspendingAUser(storage: StorageKind) async throws {
        try await Self.withScene(on: storage) { client, scene, _ in
            let phone = try await client.login("oscar")
            let socket = try await EventSocket.connect(
                baseURL: client.baseURL, credential: .header(phone.tokens.accessToken))
            let report = try await scene.report(.message, scene.messages[1].id, client).decode(Report.self)
            expectStatus(try await scene.resolve(report, .suspendUser, client), 200)

            let close = await socket.serverClosed(within: .seconds(2))
            #expect(close?.code == 1008, "closed with 1008, got \(String(describing: close))")
            for session in [scene.offender, phone] {
                expectError(try await client.get(APIRoutes.me.template, token: session.tokens.accessToken), 401)
                expectError(
                    try await client.post(
                        APIRoutes.refresh.template, RefreshRequest(refreshToken: session.tokens.refreshToken)), 401)
            }
            expectError(
                try await client.post(
                    APIRoutes.login.template, LoginRequest(username: "oscar", password: "password123")),
                403, code: "account_suspended")
            // A wrong password learns nothing of the suspension.
            expectError(
                try await client.post(APIRoutes.login.template, LoginRequest(username: "oscar", password: "guess1234")),
                401, code: "invalid_credentials")
            expectError(try await client.get(APIRoutes.product.path(scene.product.id)), 404)
            let listed = try await client.get(APIRoutes.products.template).decode(Page<Product>.self).items
            #expect(!listed.contains { $0.id == scene.product.id })
            let searched = try await client.get(APIRoutes.products.template + "?q=rolex").decode(Page<Product>.self)
            #expect(searched.items.isEmpty)
            // Moderators cannot suspend themselves.
            let selfReport = try await client.post(
                APIRoutes.createReport.template,
                CreateReportRequest(subjectType: .user, subjectId: scene.moderator.user.id, reason: .other),
                token: scene.reporter.tokens.accessToken
            ).decode(Report.self)
            expectError(try await scene.resolve(selfReport, .suspendUser, client), 422, code: "invalid_action")
        }
    }

    @Test(
        "two moderators resolving one report at once: one action is taken, the other is 409 report_resolved",
        arguments: StorageKind.available)
    func aReportIsResolvedOnceEvenAtOnce(storage: StorageKind) async throws {
        try await Self.withScene(on: storage) { client, scene, configuration in
            let second = try await client.register("max")
            try await configuration.nameModerator("max")
            for round in 0..<5 {
                let target = try await client.register("spam\(round)")
                let report = try await client.post(
                    APIRoutes.createReport.template,
                    CreateReportRequest(subjectType: .user, subjectId: target.user.id, reason: .spam),
                    token: scene.reporter.tokens.accessToken
                ).decode(Report.self)
                async let first = scene.resolve(report, .dismiss, client)
                async let other = client.post(
                    APIRoutes.resolveReport.path(report.id), ResolveReportRequest(action: .suspendUser),
                    token: second.tokens.accessToken)
                let (a, b) = try await (first, other)
                #expect([a.status, b.status].sorted() == [200, 409], "round \(round): \(a.text) \(b.text)")
                let loser = a.status == 409 ? a : b
                #expect(loser.errorCode == "report_resolved")
                // What was done is what the winner did, and the suspension happened only if it won.
                let suspended = try await client.post(
                    APIRoutes.login.template, LoginRequest(username: "spam\(round)", password: "password123"))
                #expect((suspended.status == 403) == (b.status == 200), "round \(round)")
            }
        }
    }
}
