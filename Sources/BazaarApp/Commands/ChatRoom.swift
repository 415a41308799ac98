import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// The interactive `bazaar chat open`: draws the messages screen's states on a terminal, which only
/// appends, and turns typed lines into actions. The logic follows the conversation (live messages,
/// read receipts, outbox deliveries); this type only remembers what it already printed.
actor ChatRoom {
    private let logic: any MessagesLogic
    private let outbox: any OutboxControlling
    private let output: TerminalOutput
    private let renderer: MessagesRenderer
    private var printed: Set<String> = []
    private var reportedFailures: Set<String> = []

    init(logic: any MessagesLogic, outbox: any OutboxControlling, output: TerminalOutput, renderer: MessagesRenderer) {
        self.logic = logic
        self.outbox = outbox
        self.output = output
        self.renderer = renderer
    }

    /// Runs until `input` ends or the person types `/quit`.
    func run(input: AsyncStream<String>) async throws {
        let content = try await output.loading("Opening the conversation") { await logic.send(.load) }.content()
        output.write(renderer.lines(for: content))
        printed = Set(content.messages.map(\.id))
        output.write("Type a message and press Enter; /older for earlier messages, /quit to leave.".consoleText(.muted))
        await outbox.start()
        // Watching the states opens the screen: the logic marks what arrives read and follows live.
        let states = await logic.states()
        _ = await logic.send(.markRead)
        let drawing = Task {
            for await state in states { self.show(state) }
        }
        defer { drawing.cancel() }
        reading: for await line in input {
            let text = line.trimmingCharacters(in: .whitespaces)
            switch text {
            case "": continue
            case "/quit", "/exit": break reading
            case "/older": showOlder(await logic.send(.loadOlder))
            default: await logic.send(.send(text))
            }
        }
        // Deliver what was typed before leaving, if the server is there to take it; what it cannot
        // take stays queued on disk.
        if await !outbox.flush() {
            output.write("Some messages are still queued; 'bazaar outbox flush' delivers them.".consoleText(.warning))
        }
    }

    /// Prints whatever in `state` has not been printed yet.
    private func show(_ state: ScreenState<MessagesContent>) {
        switch state {
        case .presenting(let content):
            for message in content.messages where !printed.contains(message.id) {
                printed.insert(message.id)
                output.write(renderer.line(for: message, in: content.conversation))
            }
            for entry in content.pending where !reportedFailures.contains(entry.id) {
                if case .failed = entry.state {
                    reportedFailures.insert(entry.id)
                    output.write(renderer.line(for: entry))
                }
            }
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
