import BazaarAPI
import Dependencies
import Foundation
import Moderation
import Networking
import Session
import TestSupport
import Testing

@Suite("Moderation logic controllers against the real bazaar-server", .timeLimit(.minutes(2)))
struct ModerationLogicTests {
    @Test("a member reports a message; a moderator reads it in context and removes it; the reporter sees the outcome")
    func reportAndResolve() async throws {
        try await SessionFixture.with { fixture in
            let rita = try await fixture.starter(device: "rita").register(
                username: "rita", password: "password123", displayName: "Rita")
            let mona = try await fixture.starter(device: "mona").register(
                username: "mona", password: "password123", displayName: "Mona")
            try await fixture.configuration.nameModerator("mona")
            let oscar = try await fixture.raw.register("oscar", displayName: "Oscar")
            let conversation = try await rita.network.request(
                BazaarEndpoints.startConversation(StartConversationRequest(userId: oscar.user.id)))
            let rude = try await fixture.raw.sendMessage(
                "Pay me now", in: conversation.id, token: oscar.tokens.accessToken
            )
            .decode(Message.self)

            let form = ReportFormLogicController(session: rita, subject: ReportSubject(.message, id: rude.id))
            let refused = try #require(await form.send(.submit(ReportDraft(reason: "", note: "rude"))).content)
            #expect(refused.fieldErrors[.reason] != nil && refused.made == nil)
            let made = try #require(
                await form.send(.submit(ReportDraft(reason: "scam", note: "  wants money  "))).content?.made)
            #expect(made.note == "wants money" && made.status == .open)

            // The queue is the moderators' alone.
            let notMine = await ModerationQueueLogicController(session: rita, status: .open).send(.load)
            #expect(notMine.error?.kind == .notFound)
            let queue = try #require(
                await ModerationQueueLogicController(session: mona, status: .open).send(.load).content)
            #expect(queue.reports.map(\.id) == [made.id])
            #expect(ModerationQueueContent.summary(of: made) == "Message reported: Scam or fraud")

            let report = ModerationReportLogicController(session: mona, reportID: made.id)
            let read = try #require(await report.send(.load).content)
            #expect(read.item.messages?.map(\.id) == [rude.id])
            #expect(read.actions == [.dismiss, .removeMessage, .suspendUser])
            let resolved = try #require(await report.send(.resolve(.removeMessage, note: "Asks for money")).content)
            #expect(resolved.item.report.status == .resolved && resolved.actions.isEmpty)
            #expect(resolved.item.resolution?.note == "Asks for money")
            let mine = try await rita.network.request(BazaarEndpoints.myReports())
            #expect(mine.items.first?.action == .removeMessage)
        }
    }
}
