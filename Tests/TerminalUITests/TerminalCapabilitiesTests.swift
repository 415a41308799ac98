import Testing

@testable import TerminalUI

@Suite("TerminalCapabilities")
struct TerminalCapabilitiesTests {
    @Test("a terminal gets colour, animation and its width")
    func terminalGetsColour() {
        let capabilities = TerminalCapabilities.detect(
            noColorFlag: false, environment: [:], isTerminal: true, terminalWidth: 100)
        #expect(capabilities == TerminalCapabilities(colors: true, animates: true, width: 100))
    }

    @Test("NO_COLOR, --no-color and TERM=dumb switch colour and animation off")
    func colourSwitchesOff() {
        for (flag, environment) in [(false, ["NO_COLOR": "1"]), (true, [:]), (false, ["TERM": "dumb"])] {
            let capabilities = TerminalCapabilities.detect(
                noColorFlag: flag, environment: environment, isTerminal: true, terminalWidth: 100)
            #expect(!capabilities.colors, "\(flag) \(environment)")
            #expect(!capabilities.animates)
            #expect(capabilities.width == 100)
        }
    }

    @Test("an empty NO_COLOR does not count, as no-color.org says")
    func emptyNoColorIsIgnored() {
        let capabilities = TerminalCapabilities.detect(
            noColorFlag: false, environment: ["NO_COLOR": ""], isTerminal: true, terminalWidth: 90)
        #expect(capabilities.colors)
    }

    @Test("output that is not a terminal is plain and has no width limit unless COLUMNS says")
    func pipesArePlain() {
        #expect(
            TerminalCapabilities.detect(noColorFlag: false, environment: [:], isTerminal: false, terminalWidth: nil)
                == .plain)
        let narrowed = TerminalCapabilities.detect(
            noColorFlag: false, environment: ["COLUMNS": "40"], isTerminal: false, terminalWidth: nil)
        #expect(narrowed.width == 40)
        #expect(!narrowed.colors)
    }
}
