import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// Draws the profile screen's content; no logic.
struct ProfileRenderer {
    /// The lines for `content` at `width` columns.
    func lines(for content: ProfileContent, width: Int?) -> [ConsoleText] {
        let user = content.user
        var lines = [user.displayName.consoleText(.heading)]
        lines += FieldList([
            ("Username", "@\(user.username)".consoleText()),
            ("ID", user.id.consoleText(.muted)),
            ("Bio", user.bio.map { $0.consoleText() }),
            ("Photo", user.photoURL.map { $0.consoleText() }),
            ("Member since", Formats.date(user.createdAt).consoleText()),
        ]).render(width: width)
        if content.isRefreshing { lines.append("(saved copy; refreshing…)".consoleText(.muted)) }
        return lines
    }
}
