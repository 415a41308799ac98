import Foundation

/// A loopback address where a connection is always refused, for tests of "the server is not there".
///
/// Port 9 (discard) is below the ephemeral range, so no test server is ever given it. A stopped test
/// server's port is not a safe stand-in: a server started by a test running in parallel can be handed
/// the same port a moment later, and the "refused" connection then reaches a live server.
public enum RefusedAddress {
    /// `http://127.0.0.1:9`.
    public static let url = URL(string: "http://127.0.0.1:9")!  // A literal URL: parsing it cannot fail.
}
