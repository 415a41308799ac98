/// A run that found a violation: the one-line reason the tool exits non-zero with.
struct ReliabilityFailure: Error, CustomStringConvertible {
    /// What was violated, in one line.
    let reason: String

    /// Makes a failure with its one-line reason.
    init(_ reason: String) {
        self.reason = reason
    }

    /// The one-line reason.
    var description: String { reason }
}
