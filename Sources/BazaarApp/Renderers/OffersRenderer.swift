import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import TerminalUI

/// Draws the offers of a conversation as the feature's ``OfferCard``s say them: who offered what,
/// where it stands, and the commands for the decisions that are the reader's.
struct OffersRenderer {
    /// The table of every card, newest first, and what the reader can do next.
    func lines(for content: OffersContent, width: Int?) -> [ConsoleText] {
        var lines: [ConsoleText] = []
        if content.offers.isEmpty {
            lines.append("No offers in this conversation yet.".consoleText(.muted))
        } else {
            let table = Table(
                columns: [.init("ID"), .init("OFFER", flexible: true), .init("STANDING"), .init("YOURS TO DO")],
                rows: content.cards.map { card in
                    [
                        KnownIDs.short(card.id).consoleText(.muted), card.headline.consoleText(),
                        card.standing.consoleText(style(card.offer.status)),
                        card.decisions.map { $0.rawValue }.joined(separator: ", ").consoleText(.info),
                    ]
                })
            lines += table.render(width: width)
        }
        if content.canOffer, let asking = content.askingPrice {
            lines.append("The asking price is \(asking); 'bazaar offer make' offers yours.".consoleText(.muted))
        }
        return lines
    }

    /// One card on a line, for the chat: `◆ Bob offered 120.00 EUR: waiting for your answer (/accept, /decline)`.
    func line(for card: OfferCard) -> ConsoleText {
        var text =
            ("◆ " + card.headline + ": ").consoleText(.warning) + card.standing.consoleText(style(card.offer.status))
        if !card.decisions.isEmpty {
            text =
                text
                + (" (" + card.decisions.map { "/" + $0.rawValue }.joined(separator: ", ") + ")").consoleText(.muted)
        }
        return text
    }

    private func style(_ status: OfferStatus) -> ConsoleStyle {
        switch status {
        case .open: .warning
        case .accepted: .success
        case .declined, .withdrawn: .muted
        }
    }
}
