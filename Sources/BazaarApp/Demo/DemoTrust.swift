import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import Networking
import Session
import TerminalUI

/// The trust part of the demo: a stranger writes to Dana asking for gift cards; she reports the
/// message and blocks him (his next message is refused); the operator names a moderator, who
/// reads the report with the conversation around it and suspends the stranger (his session ends at
/// once); Dana is told. Every step goes through the feature modules, as the commands do, drawn by
/// the same renderers.
struct DemoTrust {
    let narrator: DemoNarrator
    let victim: DemoUser
    let server: URL
    let folder: URL
    let database: String
    let servers: any DemoServerFactory

    /// Walks the scene from step `first` on; returns the next step's number.
    func walk(from first: Int) async throws -> Int {
        var step = first
        func next(_ title: String) async throws {
            try await narrator.step(step, title)
            step += 1
        }

        try await next("A stranger writes to Dana")
        let stranger = try await DemoUser.register(
            username: "eve", displayName: "Eve Offers", password: "gift-cards-1", server: server,
            folder: folder.appendingPathComponent("eve"))
        let conversation = try await stranger.session.network.request(
            BazaarEndpoints.startConversation(StartConversationRequest(userId: victim.id)))
        let pitch = try await stranger.session.network.request(
            BazaarEndpoints.sendMessage(
                conversationID: conversation.id, body: "Pay me in gift cards and the bike is yours, promise!",
                idempotencyKey: UUID().uuidString))
        narrator.show(
            [
                "Eve Offers: ".consoleText(.heading) + pitch.body.consoleText()
            ])

        try await next("Dana reports the message, and blocks Eve")
        let form = try victim.dependencies.moderationModule.reportFormScreen(
            subject: ReportSubject(.message, id: pitch.id)
        ).logic
        let report = try await form.send(.submit(ReportDraft(reason: "scam", note: "Asks for gift cards."))).content()
        guard let made = report.made else { throw AppError(fieldErrors: report.fieldErrors) }
        narrator.show(["✓ Reported: ".consoleText(.success) + ModerationQueueContent.summary(of: made).consoleText()])
        let account = try victim.dependencies.accountModule.accountScreen().logic
        let blocked = try await account.send(.block(userID: stranger.id)).content()
        narrator.show(AccountRenderer().lines(for: blocked, width: narrator.width).prefix(1).map { $0 })
        do {
            _ = try await stranger.session.network.request(
                BazaarEndpoints.sendMessage(
                    conversationID: conversation.id, body: "Hello?", idempotencyKey: UUID().uuidString))
            throw AppError(.refused, "a blocked user's message went through")
        } catch let error as NetworkError where error.serverCode == "blocked" {
            narrator.note("Eve writes again: refused (403 blocked); nothing reaches Dana")
        }

        try await next("The operator names a moderator: bazaar-server moderators add cyd")
        try await servers.nameModerator("cyd", database: database)
        let moderator = try await DemoUser.login(
            username: "cyd", password: "bazaar-demo", server: server, folder: folder.appendingPathComponent("cyd"))
        let queue = try await moderator.dependencies.moderationModule.queueScreen(status: .open).logic.send(.load)
            .content()
        narrator.show(ModerationRenderer().queue(queue, width: narrator.width))

        try await next("Cyd reads the report in context and suspends Eve")
        let screen = try moderator.dependencies.moderationModule.reportScreen(reportID: made.id).logic
        narrator.show(ModerationRenderer().report(try await screen.send(.load).content(), width: narrator.width))
        let resolved = try await screen.send(.resolve(.suspendUser, note: "Gift-card scam.")).content()
        narrator.show(ModerationRenderer().report(resolved, width: narrator.width).suffix(1).map { $0 })
        do {
            _ = try await stranger.session.network.request(BazaarEndpoints.me)
            throw AppError(.refused, "a suspended user's session still works")
        } catch let error as NetworkError {
            guard case .sessionExpired = error else { throw AppError(error) }
            narrator.note("Eve's session ended at once; signing in again answers 403 account_suspended")
        }

        try await next("Dana is told what the moderators did")
        let told = try await victim.dependencies.notificationsModule.notificationsScreen().logic.send(.load).content()
        narrator.show(NotificationsRenderer().lines(for: told, width: narrator.width).prefix(3).map { $0 })
        await (try stranger.dependencies.resolve((any LiveEventSource).self)).stop()
        await (try moderator.dependencies.resolve((any LiveEventSource).self)).stop()
        return step
    }
}
