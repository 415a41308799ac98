/// Text from data (titles, names, message bodies, a server's error message) made safe to print on
/// a terminal: no control character reaches it, whatever the colour setting.
///
/// Another user writes those strings. Printed raw, an escape sequence in a product title could
/// clear the screen, fake a prompt, set the window title or write the clipboard (OSC 52). So every
/// C0 control but the line break, DEL and every C1 control is replaced by a visible stand-in:
/// C0 and DEL by their Unicode control pictures (`ESC` shows as `␛`), C1 by `<9B>`-style hex,
/// a tab by a space. The styles this module writes itself (ConsoleKit's SGR sequences) are added
/// after, so colour still works.
public enum TerminalText {
    /// `text` with every control character but `\n` shown visibly.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A:
                result.append(scalar)
            case 0x09:
                result.append(" ")
            case 0x00...0x1F:
                result.append(Unicode.Scalar(0x2400 + scalar.value) ?? "?")
            case 0x7F:
                result.append("\u{2421}")
            case 0x80...0x9F:
                result.append(contentsOf: "<\(String(scalar.value, radix: 16, uppercase: true))>".unicodeScalars)
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// JSON text (``TerminalOutput/writePlain(_:)``) with DEL and C1 controls, which `JSONEncoder`
    /// leaves raw, written as `\u007F`-style escapes: the same JSON to a parser, nothing a terminal
    /// acts on. (Other C0 controls only ever appear escaped in JSON, and are escaped here too.)
    public static func jsonSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) && scalar.value != 0x0A {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// C0 (but `\n`), DEL and C1.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar.value != 0x0A) || (0x7F...0x9F).contains(scalar.value)
    }
}
