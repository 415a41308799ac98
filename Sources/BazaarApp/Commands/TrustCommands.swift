import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// `bazaar block USER`.
struct BlockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "block", abstract: "Block someone: neither of you can then write to the other.",
        discussion: """
            Your conversations stay readable; no new message, offer or conversation passes
            between you until you unblock them ('bazaar unblock USER'). They are not told.

            Examples:
              bazaar block 7c1e…
            """)
    @Argument(help: "The user's id, or a unique prefix of one shown here.") var user: String
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await AccountCommand.run(
            { [user] context in .block(userID: try context.ids.resolve(user, what: "user")) }, options)
    }
}

/// `bazaar unblock USER`.
struct UnblockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unblock", abstract: "Stop blocking someone.",
        discussion: """
            Examples:
              bazaar unblock 7c1e…
            """)
    @Argument(help: "The user's id, or a unique prefix of one shown here.") var user: String
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await AccountCommand.run(
            { [user] context in .unblock(userID: try context.ids.resolve(user, what: "user")) }, options)
    }
}

extension ReportSubjectType: ExpressibleByArgument {}
extension ReportReason: ExpressibleByArgument {}
extension ReportStatus: ExpressibleByArgument {}
extension ModerationAction: ExpressibleByArgument {}

/// `bazaar report user|product|message ID --reason R [--note N]`.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Report a person, a listing or a message to the moderators.",
        discussion: """
            Reasons: spam, scam, offensive, prohibited, other. You are notified when a moderator
            acts on it. Reporting the same thing again while it is open shows your report.

            Examples:
              bazaar report message 4b2d… --reason scam --note "asks for gift cards"
              bazaar report user 7c1e… --reason spam
            """)
    @Argument(help: "What you report: user, product or message.") var subject: ReportSubjectType
    @Argument(help: "Its id, or a unique prefix of one shown here.") var id: String
    @Option(help: "spam, scam, offensive, prohibited or other.") var reason: String
    @Option(help: "What the moderators should know, up to \(InputRules.reportNote.upperBound) characters.")
    var note = ""
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await AppCommand.run(options) { context in
            try await context.startSignedIn()
            let target = ReportSubject(subject, id: try context.ids.resolve(id, what: subject.rawValue))
            let logic = try context.dependencies.moderationModule.reportFormScreen(subject: target).logic
            let form = try await context.output.loading("Sending the report") {
                await logic.send(.submit(ReportDraft(reason: reason, note: note)))
            }.content()
            guard let report = form.made else { throw AppError(fieldErrors: form.fieldErrors) }
            context.ids.record([report.id])
            if context.json { return try context.printJSON(report) }
            context.output.write(
                "✓ Reported. ".consoleText(.success)
                    + "The moderators will look at it; you are notified of what they do.".consoleText(.muted))
        }
    }
}

/// `bazaar moderation`: the moderators' queue and their actions.
struct ModerationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moderation", abstract: "The report queue, for moderators.",
        discussion: """
            Moderators are named by the server's operator ('bazaar-server moderators add NAME');
            for anyone else the queue does not exist (exit 66).

            Examples:
              bazaar moderation
              bazaar moderation --status resolved
              bazaar moderation show 9a3f…
              bazaar moderation resolve 9a3f… --action remove_message --note "asks for money"
            """,
        subcommands: [List.self, Show.self, Resolve.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Reports, oldest first.")
        @Option(help: "open or resolved.") var status: ReportStatus = .open
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AppCommand.run(options) { context in
                try await context.startSignedIn()
                let logic = try context.dependencies.moderationModule.queueScreen(status: status).logic
                let queue = try await context.output.loading("Loading the queue") { await logic.send(.load) }.content()
                context.ids.record(queue.reports.map(\.id))
                if context.json { return try context.printJSON(queue.reports) }
                context.output.write(ModerationRenderer().queue(queue, width: context.output.capabilities.width))
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "One report with what it is about, in context.")
        @Argument(help: "The report's id, or a unique prefix of one shown here.") var report: String
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await ModerationCommand.work(on: report, .load, options)
        }
    }

    struct Resolve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resolve", abstract: "Act on a report: dismiss, remove_product, remove_message, suspend_user.")
        @Argument(help: "The report's id, or a unique prefix of one shown here.") var report: String
        @Option(help: "dismiss, remove_product, remove_message or suspend_user.") var action: ModerationAction
        @Option(help: "Why, kept with the action (up to \(InputRules.reportNote.upperBound) characters).") var note = ""
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await ModerationCommand.work(on: report, .resolve(action, note: note), options)
        }
    }

    /// Runs `action` on the report `report` names and shows it.
    static func work(on report: String, _ action: ModerationReportAction, _ options: GlobalOptions) async throws {
        try await AppCommand.run(options) { context in
            try await context.startSignedIn()
            let id = try context.ids.resolve(report, what: "report")
            let logic = try context.dependencies.moderationModule.reportScreen(reportID: id).logic
            let content = try await context.output.loading("Working on the report") { await logic.send(action) }
                .content()
            if let error = content.noteError { throw AppError(.invalidInput, "note: \(error)") }
            let item = content.item
            context.ids.record(
                [item.reporter.id, item.subjectUser.id] + (item.messages ?? []).map(\.id)
                    + [item.product?.id].compactMap { $0 })
            if context.json { return try context.printJSON(item) }
            context.output.write(ModerationRenderer().report(content, width: context.output.capabilities.width))
        }
    }
}

/// Draws the moderators' screens; no logic.
struct ModerationRenderer {
    func queue(_ content: ModerationQueueContent, width: Int?) -> [ConsoleText] {
        guard !content.reports.isEmpty else {
            return ["No \(content.status.rawValue) reports.".consoleText(.muted)]
        }
        let table = Table(
            columns: [.init("ID"), .init("REPORT", flexible: true), .init("NOTE", flexible: true), .init("MADE")],
            rows: content.reports.map { report in
                [
                    KnownIDs.short(report.id).consoleText(.muted),
                    ModerationQueueContent.summary(of: report).consoleText(),
                    (report.note ?? "").consoleText(.muted), Formats.date(report.createdAt).consoleText(.muted),
                ]
            })
        return table.render(width: width)
    }

    func report(_ content: ModerationReportContent, width: Int?) -> [ConsoleText] {
        let item = content.item
        let report = item.report
        var lines: [ConsoleText] = [
            ModerationQueueContent.summary(of: report).consoleText(.heading),
            "By ".consoleText(.muted) + Formats.person(item.reporter).consoleText() + " against ".consoleText(.muted)
                + Formats.person(item.subjectUser).consoleText(.highlight),
        ]
        if let note = report.note { lines.append("“\(note)”".consoleText()) }
        if let product = item.product {
            lines.append("")
            lines.append(
                "Listing: ".consoleText(.muted) + product.title.consoleText(.heading) + "  " + Formats.price(product))
            if !product.description.isEmpty { lines.append(product.description.consoleText()) }
        }
        if let messages = item.messages {
            lines.append("")
            for message in messages {
                let reported = message.id == report.subjectId
                let who = message.senderId == item.subjectUser.id ? item.subjectUser : item.reporter
                let marker: ConsoleText = reported ? "▶ ".consoleText(.highlight) : "  "
                lines.append(
                    marker + "\(who.displayName): ".consoleText(.heading)
                        + message.body.consoleText(reported ? .highlight : .plain))
            }
        }
        lines.append("")
        if let resolution = item.resolution {
            lines.append(
                "Resolved: ".consoleText(.success)
                    + ModerationReportContent.label(of: resolution.action).consoleText(.heading)
                    + " on \(Formats.date(resolution.createdAt))".consoleText(.muted)
                    + (resolution.note.map { ", “\($0)”" } ?? "").consoleText())
        } else {
            lines.append(
                "Act with: ".consoleText(.muted)
                    + content.actions.map(\.rawValue).joined(separator: ", ").consoleText())
        }
        return lines
    }
}
