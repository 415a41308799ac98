import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// The interactive `bazaar chat open`: draws the messages screen's states (and the offers screen's,
/// of the same conversation) on a terminal, which only appends, and turns typed lines into actions.
/// The logic follows the conversation (live messages and offers, read receipts, outbox
/// deliveries); this type only remembers what it already printed.
actor ChatRoom {
    private let logic: any MessagesLogic
    private let offers: (any OffersLogic)?
    private let outbox: any OutboxControlling
    private let output: TerminalOutput
    private let renderer: MessagesRenderer
    /// Where the ids of the photos shown are recorded, so the short ids printed resolve.
    private let ids: KnownIDs?
    private var printed: Set<String> = []
    private var reportedFailures: Set<String> = []
    /// The typed commands about offers.
    private static let offerCommands: Set<String> = ["/offer", "/offers", "/accept", "/decline", "/withdraw"]
    /// The open offers whose decisions were pointed out to the reader.
    private var announced: Set<String> = []

    init(
        logic: any MessagesLogic, offers: (any OffersLogic)? = nil, outbox: any OutboxControlling,
        output: TerminalOutput, renderer: MessagesRenderer, ids: KnownIDs? = nil
    ) {
        self.ids = ids
        self.logic = logic
        self.offers = offers
        self.outbox = outbox
        self.output = output
        self.renderer = renderer
    }

    /// Runs until `input` ends or the person types `/quit`.
    func run(input: AsyncStream<String>) async throws {
        let content = try await output.loading("Opening the conversation") { await logic.send(.load) }.content()
        output.write(renderer.lines(for: content))
        printed = Set(content.messages.map(\.id))
        ids?.record([content.conversation.id] + content.messages.flatMap { $0.attachments.map(\.id) })
        if content.conversation.blocked {
            output.write(
                "You cannot write here: one of you blocked the other ('bazaar account' lists whom you blocked)."
                    .consoleText(.warning))
        } else if content.conversation.otherUser.isDeleted {
            output.write("This person deleted their account: nothing more can be sent here.".consoleText(.warning))
        }
        output.write(
            "Type a message and press Enter; /photo FILE [text] sends a photo; /older for earlier messages, /quit to leave."
                .consoleText(.muted))
        if offers != nil {
            output.write(
                "Offers: /offer 120 makes one; /offers lists them; /accept, /decline, /withdraw [id] decide one."
                    .consoleText(.muted))
        }
        await outbox.start()
        // Watching the states opens the screen: the logic marks what arrives read and follows live.
        let states = await logic.states()
        _ = await logic.send(.markRead)
        let drawing = Task {
            for await state in states { self.show(state) }
        }
        defer { drawing.cancel() }
        var offerDrawing: Task<Void, Never>?
        if let offers {
            announce(await offers.send(.load), quietly: false)
            let offerStates = await offers.states()
            offerDrawing = Task {
                for await state in offerStates { self.announce(state, quietly: true) }
            }
        }
        defer { offerDrawing?.cancel() }
        reading: for await line in input {
            let text = line.trimmingCharacters(in: .whitespaces)
            let words = text.split(separator: " ").map(String.init)
            switch words.first ?? "" {
            case "": continue
            case "/quit", "/exit": break reading
            case "/older": showOlder(await logic.send(.loadOlder))
            case "/photo": await sendPhoto(text)
            case let command where offers != nil && Self.offerCommands.contains(command):
                await offerMove(words)
            default: await logic.send(.send(text))
            }
        }
        // Deliver what was typed before leaving, if the server is there to take it; what it cannot
        // take stays queued on disk.
        if await !outbox.flush() {
            output.write("Some messages are still queued; 'bazaar outbox flush' delivers them.".consoleText(.warning))
        }
    }

    /// `/photo FILE [text]`: queues the photo (and the text after it) through the outbox.
    private func sendPhoto(_ line: String) async {
        let rest = line.dropFirst("/photo".count).trimmingCharacters(in: .whitespaces)
        guard !rest.isEmpty else {
            return output.write("Say which file: /photo ~/scratch.jpg Here it is".consoleText(.warning))
        }
        let path = String(rest.prefix { $0 != " " })
        let text = rest.dropFirst(path.count).trimmingCharacters(in: .whitespaces)
        do {
            let photos = try ImageFile.photos([(path as NSString).expandingTildeInPath])
            show(await logic.send(.sendPhotos(photos, text: text)).error)
        } catch {
            output.write(ErrorPanel(message: error.description, suggestion: "Name a JPEG, PNG or WebP file.").render())
        }
    }

    /// Prints whatever in `state` has not been printed yet.
    private func show(_ state: ScreenState<MessagesContent>) {
        switch state {
        case .presenting(let content):
            for message in content.messages where !printed.contains(message.id) {
                printed.insert(message.id)
                ids?.record(message.attachments.map(\.id))
                output.write(renderer.lines(for: message, in: content.conversation))
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

    /// Performs a typed offer command: `/offer AMOUNT`, `/offers`, or a decision with an optional
    /// offer id.
    private func offerMove(_ words: [String]) async {
        guard let offers else { return }
        let argument = words.dropFirst().first
        switch words[0] {
        case "/offers":
            let state = await offers.send(.load)
            guard let content = state.content else { return show(state.error) }
            output.write(OffersRenderer().lines(for: content, width: output.capabilities.width))
        case "/offer":
            guard let cents = argument.flatMap(Price.cents(from:)), cents > 0 else {
                return output.write("Say how much: /offer 120 or /offer 99.50".consoleText(.warning))
            }
            show(await offers.send(.make(amountCents: cents)).error)
        default:
            guard let decision = OfferDecision(rawValue: String(words[0].dropFirst())) else { return }
            let loaded = await offers.send(.load)
            guard let content = loaded.content else { return show(loaded.error) }
            do {
                let card = try OfferMoves.target(of: decision, idPrefix: argument, in: content)
                show(await offers.send(.decide(decision, offerID: card.id)).error)
            } catch {
                output.write(ErrorPanel(message: error.description, suggestion: "/offers lists them.").render())
            }
        }
    }

    /// Points out, once each, the open offers whose decisions are the reader's (as they arrive
    /// live, too); the offer's own line in the timeline says the rest.
    private func announce(_ state: ScreenState<OffersContent>, quietly: Bool) {
        guard let content = state.content else {
            if !quietly { show(state.error) }
            return
        }
        for card in content.cards.reversed() where !card.decisions.isEmpty && !announced.contains(card.id) {
            announced.insert(card.id)
            output.write(OffersRenderer().line(for: card))
        }
    }

    private func show(_ error: ScreenError?) {
        guard let error else { return }
        output.write(ErrorPanel(message: error.message, suggestion: error.suggestion).render())
    }

    private func showOlder(_ state: ScreenState<MessagesContent>) {
        guard case .presenting(let content) = state else { return }
        let older = content.messages.filter { !printed.contains($0.id) }
        guard !older.isEmpty else { return output.write("(no earlier messages)".consoleText(.muted)) }
        output.write("── earlier ──".consoleText(.muted))
        for message in older {
            printed.insert(message.id)
            ids?.record(message.attachments.map(\.id))
            output.write(renderer.lines(for: message, in: content.conversation))
        }
    }
}
