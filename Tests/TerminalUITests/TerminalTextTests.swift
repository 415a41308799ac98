import Foundation
import Testing

@testable import TerminalUI

@Suite("Control characters from data are shown, not obeyed")
struct TerminalTextTests {
    @Test("C0 but the line break, DEL and C1 become visible stand-ins; other text is untouched")
    func everyControlIsVisible() {
        #expect(TerminalText.visible("\u{1B}[2J") == "␛[2J")
        #expect(TerminalText.visible("bell\u{07} cr\r nul\u{0}") == "bell␇ cr␍ nul␀")
        #expect(TerminalText.visible("a\u{7F}b\u{9B}c\u{85}") == "a␡b<9B>c<85>")
        #expect(TerminalText.visible("two\nlines\tand a tab") == "two\nlines and a tab")
        #expect(TerminalText.visible("Fahrrad 🚲 — günstig") == "Fahrrad 🚲 — günstig")
        for value in UInt32(0)...0x9F {
            guard let scalar = Unicode.Scalar(value), value != 0x0A else { continue }
            let shown = TerminalText.visible(String(Character(scalar)))
            #expect(
                !shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                "U+\(String(value, radix: 16)) shown as \(shown.debugDescription)")
        }
    }

    @Test("JSON made safe reads back to the same value, and holds no raw control character")
    func jsonStaysTheSame() throws {
        let title = "Lamp\u{1B}]52;c;x\u{07}\u{9B}31m\u{7F}\nend"
        let json = String(decoding: try JSONEncoder().encode(["title": title]), as: UTF8.self)
        let safe = TerminalText.jsonSafe(json)
        #expect(!safe.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
        #expect(try JSONDecoder().decode([String: String].self, from: Data(safe.utf8))["title"] == title)
    }
}
