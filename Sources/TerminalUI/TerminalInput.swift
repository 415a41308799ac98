import ConsoleKitTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading what a person types: a password without echo on a terminal, or a line from a pipe for
/// scripts.
public enum TerminalInput {
    /// Whether standard input is a terminal (a person typing) rather than a pipe or a file.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// Reads a secret: on a terminal, after `prompt` on standard error and without echo; from a
    /// pipe, the next line as it is. `nil` at the end of input.
    public static func secret(prompt: String) -> String? {
        guard isInteractive else { return readLine(strippingNewline: true) }
        let console = Terminal()
        console.report(error: prompt, newLine: false)
        let value = console.input(isSecure: true)
        console.report(error: "", newLine: true)
        return value
    }

    /// Reads the next line of standard input; `nil` at its end.
    public static func line() -> String? {
        readLine(strippingNewline: true)
    }
}
