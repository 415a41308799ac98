import BazaarAPI
import Foundation
import TestSupport
import Testing

/// Another user's text cannot drive your terminal (issue 32, hole 7): the CLI runs under a real
/// pseudo-terminal (`script` from util-linux), so it writes colour as it does for a person, and
/// a seller's title full of escape sequences comes out as visible characters.
@Suite("Escape sequences in data are shown, never obeyed")
struct TerminalEscapeTests {
    /// Clears the screen, writes the clipboard (OSC 52), sets the window title, rings the bell,
    /// a C1 CSI (`U+009B`) turning text red, and DEL.
    static let hostileTitle = "Lamp\u{1B}[2J\u{1B}]52;c;ZWNobyBwd25lZA==\u{07}\u{1B}]0;pwned\u{07}\u{9B}31mred\u{7F}"

    @Test("under a terminal with colour on, a title's escape sequences reach the screen as visible characters")
    func aTitlesEscapesAreShown() async throws {
        try await BazaarTestHarness.withServer { server in
            let seller = try await server.register("sam")
            _ = try await server.createProduct(Self.hostileTitle, token: seller.tokens.accessToken)
            let folder = try BazaarTestHarness.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let command = [
                BazaarCLI().path, "products", "--server", server.baseURL.absoluteString, "--config-dir", folder.path,
            ]
            let screen = try await Self.underTerminal(command)

            #expect(
                screen.contains("\u{1B}["),
                "colour is on, so the test sees what a person sees: \(screen.debugDescription)")
            for sequence in ["\u{1B}[2J", "\u{1B}]", "\u{07}", "\u{9B}", "\u{7F}"] {
                #expect(
                    !screen.contains(sequence),
                    "\(sequence.debugDescription) reached the terminal: \(screen.debugDescription)")
            }
            #expect(screen.contains("Lamp␛[2J␛]52;c;ZWNobyBwd25lZA==␇"), "\(screen.debugDescription)")
            #expect(screen.contains("<9B>31mred␡"), "\(screen.debugDescription)")
        }
    }

    @Test("--json escapes what JSONEncoder leaves raw (C1, DEL), and the JSON still reads back the same title")
    func jsonOutputCarriesNoRawControls() async throws {
        try await BazaarTestHarness.withServer { server in
            let seller = try await server.register("sam")
            _ = try await server.createProduct(Self.hostileTitle, token: seller.tokens.accessToken)
            let user = try CLIUser(server: server.baseURL)
            defer { user.removeFolder() }
            let (products, outcome) = try await user.json([Product].self, ["products"])
            #expect(products.first?.title == Self.hostileTitle)
            #expect(
                !outcome.stdout.unicodeScalars.contains {
                    $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value)
                })
        }
    }

    /// What `command` writes to a pseudo-terminal (`script -qefc`), `TERM=xterm-256color`.
    static func underTerminal(_ command: [String]) async throws -> String {
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
        let process = try ChildProcess(
            executable: "/usr/bin/script", arguments: ["-qefc", quoted, "/dev/null"],
            addingToEnvironment: ["TERM": "xterm-256color", "NO_COLOR": "", "COLUMNS": "200"],
            standardOutput: .pipe, standardError: .pipe)
        let output = try await offPool {
            PipeReading.readToEnd([process.standardOutput, process.standardError].compactMap { $0 })
        }
        #expect(process.waitUntilExit() == 0, "\(String(decoding: output[1], as: UTF8.self))")
        return String(decoding: output[0], as: UTF8.self)
    }
}
