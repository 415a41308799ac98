import ConsoleKitTerminal
import Testing

@testable import TerminalUI

@Suite("Table")
struct TableTests {
    let table = Table(
        columns: [.init("ID"), .init("TITLE", flexible: true), .init("PRICE", alignRight: true)],
        rows: [
            ["p1", "Road bike, barely used, with two new tyres and a bell", "€120.00"],
            ["p22", "Lamp", "€5.00"],
        ])

    @Test("columns line up and numbers align right")
    func alignsColumns() {
        let lines = table.render(width: nil).map(\.description)
        #expect(lines[0].hasPrefix("ID   TITLE"))
        #expect(lines[0].hasSuffix("  PRICE"))
        #expect(lines[2].hasPrefix("p22  Lamp "))
        #expect(lines[2].hasSuffix("  €5.00"))
        #expect(Set(lines.map { TextWidth.columns(of: $0) }).count == 1, "every line is as wide as the widest")
    }

    @Test("a table wider than the terminal narrows its flexible column and marks the cut with …")
    func fitsWidth() {
        let lines = table.render(width: 40).map(\.description)
        for line in lines { #expect(TextWidth.columns(of: line) <= 40, "\(line)") }
        #expect(lines[1].contains("Road bike"))
        #expect(lines[1].contains("…"))
        #expect(lines[1].hasSuffix("€120.00"), "fixed columns keep their width")
    }

    @Test("styles survive in cells, and the header is bold")
    func keepsStyles() {
        let styled = Table(columns: [.init("A")], rows: [[ConsoleText(fragments: [.init(string: "x", style: .price)])]])
        let lines = styled.render(width: nil)
        #expect(lines[0].fragments.allSatisfy { $0.style.isBold })
        let colour = lines[1].fragments.first?.style.color
        #expect(colour.map { if case .green = $0 { true } else { false } } == true)
    }
}

@Suite("Text width and truncation")
struct TextWidthTests {
    @Test("emoji and CJK take two columns, combining marks none")
    func widths() {
        #expect(TextWidth.columns(of: "abc") == 3)
        #expect(TextWidth.columns(of: "🚲") == 2)
        #expect(TextWidth.columns(of: "自転車") == 6)
        #expect(TextWidth.columns(of: "e\u{301}") == 1)
    }

    @Test("truncation never splits a wide character past the limit")
    func truncates() {
        let text = ConsoleText(stringLiteral: "🚲🚲🚲 bike")
        let cut = text.truncated(to: 4)
        #expect(cut.description == "🚲…")
        #expect(cut.displayWidth <= 4)
        #expect(ConsoleText(stringLiteral: "short").truncated(to: 10).description == "short")
    }
}

@Suite("FieldList, ErrorPanel and ProgressLine")
struct PrimitivesTests {
    @Test("fields align their values and wrap long ones at the width")
    func fields() {
        let lines = FieldList([
            ("Title", "Road bike"), ("Description", "one two three four five six seven"), ("Bio", nil),
        ])
        .render(width: 30).map(\.description)
        #expect(lines[0] == "Title        Road bike")
        #expect(lines[1].hasPrefix("Description  one two"))
        #expect(lines.count == 4, "the description wraps over three lines: \(lines)")
        #expect(!lines.contains { $0.hasPrefix("Bio") }, "a nil field is left out")
        #expect(lines[2].hasPrefix(String(repeating: " ", count: 13)))
        for line in lines { #expect(TextWidth.columns(of: line) <= 30) }
    }

    @Test("an error panel says what went wrong and what to do next")
    func errorPanel() {
        let panel = ErrorPanel(message: "The server could not be reached.", suggestion: "Try again later.")
        #expect(panel.render().map(\.description) == ["✗ The server could not be reached.", "  → Try again later."])
        #expect(panel.oneLine == "The server could not be reached. Try again later.")
    }

    @Test("a progress line shows the share done and fits the width")
    func progress() {
        let line = ProgressLine(title: "Uploading", fraction: 0.5).render(width: 40).description
        #expect(line.hasPrefix("Uploading ["))
        #expect(line.hasSuffix(" 50%"))
        #expect(TextWidth.columns(of: line) <= 40)
        #expect(ProgressLine(title: "x", fraction: 7).percent == 100)
        #expect(ProgressLine(title: "x", fraction: .nan).percent == 0)
    }
}
