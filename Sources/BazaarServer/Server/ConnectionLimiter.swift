import Synchronization

/// Counts the open connections of each client address, shared by all of a server's connections,
/// and refuses one more past the cap.
final class ConnectionLimiter: Sendable {
    /// The most connections one address may hold.
    let cap: Int
    private let open = Mutex([String: Int]())

    init(cap: Int) {
        self.cap = cap
    }

    /// Counts a new connection from `address`; `false` (counting nothing) when it already holds `cap`.
    func acquire(_ address: String) -> Bool {
        open.withLock { open in
            let count = open[address, default: 0]
            guard count < cap else { return false }
            open[address] = count + 1
            return true
        }
    }

    /// Uncounts a closed connection from `address`.
    func release(_ address: String) {
        open.withLock { open in
            guard let count = open[address] else { return }
            open[address] = count > 1 ? count - 1 : nil
        }
    }

    /// How many connections `address` holds now.
    func count(for address: String) -> Int {
        open.withLock { $0[address, default: 0] }
    }
}
