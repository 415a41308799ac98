import BazaarAPI
import BazaarStorage
import Foundation

/// Where services take the time and new ids from: the configured clock, read to the
/// millisecond the wire and storage keep (so a value written and a value read back compare
/// equal), and random ids. Tests give a fixed clock.
package struct DomainClock: Sendable {
    private let read: @Sendable () -> Date
    private let makeId: @Sendable () -> String

    /// A clock reading `now` and making ids with `newId` (random UUIDs by default).
    package init(now: @escaping @Sendable () -> Date, newId: @escaping @Sendable () -> String = { RandomID.make() }) {
        self.read = now
        self.makeId = newId
    }

    /// The current time, rounded to milliseconds.
    package func now() -> Date {
        BazaarJSON.roundedToMillis(read())
    }

    /// A new opaque id.
    package func newId() -> String {
        makeId()
    }
}
