#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the output can do: colour, animation, and how wide a line may be.
///
/// Colour is off when `NO_COLOR` is set (to anything but the empty string, per no-color.org), when
/// the person passed `--no-color`, when `TERM` is `dumb`, or when standard output is not a terminal
/// (a pipe or a file); animations (spinners, live progress bars) run only where colour does.
public struct TerminalCapabilities: Sendable, Equatable {
    /// Whether styles (colour, bold) are written.
    public var colors: Bool
    /// Whether spinners and progress bars redraw in place.
    public var animates: Bool
    /// The number of columns lines must fit in; `nil` when there is no limit (output is not a terminal).
    public var width: Int?

    /// Makes capabilities by hand (tests, or a renderer drawing into a fixed width).
    public init(colors: Bool, animates: Bool, width: Int?) {
        self.colors = colors
        self.animates = animates
        self.width = width
    }

    /// Plain output with no width limit: what a pipe or a file gets.
    public static let plain = TerminalCapabilities(colors: false, animates: false, width: nil)

    /// Decides from the flag, the environment and whether standard output is a terminal.
    ///
    /// - Parameters:
    ///   - noColorFlag: whether `--no-color` was given.
    ///   - environment: the process environment (`NO_COLOR`, `TERM`, `COLUMNS`).
    ///   - isTerminal: whether standard output is a terminal; read from the process by default.
    ///   - terminalWidth: the terminal's width in columns, when known.
    public static func detect(
        noColorFlag: Bool, environment: [String: String], isTerminal: Bool = isatty(STDOUT_FILENO) == 1,
        terminalWidth: Int? = TerminalCapabilities.terminalColumns()
    ) -> TerminalCapabilities {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        let colors = isTerminal && !noColorFlag && !noColor && !dumb
        let columns = environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        let width = columns ?? (isTerminal ? (terminalWidth ?? 80) : nil)
        return TerminalCapabilities(colors: colors, animates: colors, width: width)
    }

    /// The width of the terminal on standard output, or `nil` when it is not one.
    public static func terminalColumns() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
