import Foundation

extension Duration {
    /// `0.42 s`.
    var secondsText: String {
        String(format: "%.2f s", Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }

    /// The duration in whole milliseconds.
    var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
