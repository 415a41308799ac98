import Foundation

/// A configuration problem that stops the server from starting.
public struct ConfigurationError: Error, CustomStringConvertible {
    /// What is wrong, in words.
    public var description: String

    package init(_ description: String) {
        self.description = description
    }
}
