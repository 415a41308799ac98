import BazaarAPI
import Chat
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// The interactive `bazaar chat open`: prints the history, then each new message as it arrives
/// (live events, with catch-up after a reconnect), sends each typed line through the outbox, and
/// marks what was shown as read. An actor: the live stream and the keyboard both print.
actor ChatRoom {
    private let logic: any MessagesLogic
    private let outbox: Outbox
    private let output: TerminalOutput
    private let renderer: MessagesRenderer
    private var printed: Set<String> = []
    private var reportedFailures: Set<String> = []

    init(logic: any MessagesLogic, outbox: Outbox, output: TerminalOutput, renderer: MessagesRenderer) {
        self.logic = logic
        self.outbox = outbox
        self.output = output
        self.renderer = renderer
    }

    /// Runs until `input` ends or the person types `/quit`.
    func run(input: AsyncStream<String>) async throws {
        let content = try await output.loading("Opening the conversation") { await logic.load() }.content()
        output.write(renderer.lines(for: content))
        printed = Set(content.messages.map(\.id))
        output.write("Type a message and press Enter; /older for earlier messages, /quit to leave.".consoleText(.muted))
        _ = await logic.markRead()
        await outbox.start()
        let live = Task { [logic] in
            for await state in await logic.live() { await self.show(state) }
        }
        let delivered = Task { [outbox] in
            for await entry in await outbox.updates() where entry.state.isFinal { await self.delivered(entry) }
        }
        defer {
            live.cancel()
            delivered.cancel()
        }
        reading: for await line in input {
            let text = line.trimmingCharacters(in: .whitespaces)
            switch text {
            case "": continue
            case "/quit", "/exit": break reading
            case "/older": showOlder(await logic.loadOlder())
            default: await show(await logic.send(text))
            }
        }
        // Deliver what was typed before leaving, if the server is there to take it; what it cannot
        // take stays queued on disk.
        if await !outbox.flush() {
            output.write("Some messages are still queued; 'bazaar outbox flush' delivers them.".consoleText(.warning))
        }
    }

    private func delivered(_ entry: OutboxEntry) async {
        await show(await logic.refresh())
    }

    /// Prints whatever in `state` has not been printed yet; marks incoming messages read.
    private func show(_ state: ScreenState<MessagesContent>) async {
        switch state {
        case .presenting(let content):
            let new = content.messages.filter { !printed.contains($0.id) }
            for message in new {
                printed.insert(message.id)
                output.write(renderer.line(for: message, in: content.conversation))
            }
            for entry in content.pending where !reportedFailures.contains(entry.id) {
                if case .failed = entry.state {
                    reportedFailures.insert(entry.id)
                    output.write(renderer.line(for: entry))
                }
            }
            if new.contains(where: { $0.senderId != renderer.me }) { _ = await logic.markRead() }
        case .failed(let error):
            output.write(ErrorPanel(message: error.message, suggestion: error.suggestion).render())
        case .loading:
            break
        }
    }

    private func showOlder(_ state: ScreenState<MessagesContent>) {
        guard case .presenting(let content) = state else { return }
        let older = content.messages.filter { !printed.contains($0.id) }
        guard !older.isEmpty else { return output.write("(no earlier messages)".consoleText(.muted)) }
        output.write("── earlier ──".consoleText(.muted))
        for message in older {
            printed.insert(message.id)
            output.write(renderer.line(for: message, in: content.conversation))
        }
    }
}
