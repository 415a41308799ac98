import Foundation

/// Standard output as the runs write it: a line at a time, unbuffered, so each finding shows at
/// once in a CI log (`print` into a pipe is block-buffered, and a crash would lose the last lines).
enum Output {
    /// Writes `text` and a newline to standard output.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
