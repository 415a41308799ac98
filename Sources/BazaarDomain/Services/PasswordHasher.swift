import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// Hashes and checks passwords with bcrypt, off the request threads, with a bound on how many
/// checks may wait or run at once.
///
/// The password is first reduced with SHA-256 (base64), so bcrypt's 72-byte limit and its
/// C-string handling never cut a long password or one containing NUL.
///
/// A bcrypt check costs tens of milliseconds of a core, and register and sign-in are open to
/// anyone: without a bound, a flood queues checks without end and every sign-in waits behind it.
/// So a check is only made inside ``admitted(_:_:)``, which refuses at once (503 with
/// `Retry-After`) past ``capacity``, and lets new accounts hold at most half of it: a register
/// flood leaves half the places to sign-ins. New accounts are also hashed on a thread of their
/// own, so a sign-in never queues behind a flood's hashes (it only shares the CPU with them).
package struct PasswordHasher: Sendable {
    /// What a password check is for.
    package enum Purpose: Sendable {
        /// Hashing the password of a new account (register).
        case newAccount
        /// Checking a password at sign-in.
        case signIn
    }

    package let cost: UInt8
    /// A hash of a random secret, checked for unknown usernames so they cost as much as known ones.
    package let decoyHash: String
    /// How many password checks may wait or run at once.
    package let capacity: Int
    private let places: PasswordCheckPlaces

    /// The default bound: eight checks per core, so a sign-in waits at most about eight checks'
    /// time (0.5 s at cost 10) behind others.
    package static var defaultCapacity: Int { 8 * max(1, ProcessInfo.processInfo.activeProcessorCount) }

    package init(cost: Int, capacity: Int = PasswordHasher.defaultCapacity) {
        self.cost = UInt8(min(max(cost, 4), 31))
        self.capacity = max(2, capacity)
        places = PasswordCheckPlaces(capacity: max(2, capacity))
        decoyHash = Bcrypt.hash(Self.prehash(UUID().uuidString), cost: self.cost)
    }

    /// Runs `body` holding one of the bounded places for password checks, which it makes
    /// through the ``PasswordWork`` it is given.
    ///
    /// - Throws: ``DomainError/busy(_:retryAfter:)`` at once, before `body` runs, when every
    ///   place (or, for a new account, half of them) is taken.
    package func admitted<Result: Sendable>(
        _ purpose: Purpose, _ body: (PasswordWork) async throws -> Result
    ) async throws -> Result {
        guard places.enter(purpose) else {
            throw DomainError.busy("too many password checks at once", retryAfter: 1)
        }
        defer { places.leave(purpose) }
        return try await body(PasswordWork(cost: cost, pool: purpose == .newAccount ? Self.newAccountPool : .singleton))
    }

    /// A new bcrypt hash of the password, outside the bound: for tools and demo seeding, which
    /// no client can make run.
    package func hash(_ password: String) async throws -> String {
        try await PasswordWork(cost: cost, pool: .singleton).hash(password)
    }

    /// The one thread new accounts' passwords are hashed on, for every server in the process;
    /// started on first use and never stopped (as `NIOThreadPool.singleton`).
    static let newAccountPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    package static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}

/// The password checks a caller was admitted to make (see ``PasswordHasher/admitted(_:_:)``).
package struct PasswordWork: Sendable {
    let cost: UInt8
    /// The threads the checks run on.
    let pool: NIOThreadPool

    /// A new bcrypt hash of the password.
    package func hash(_ password: String) async throws -> String {
        let input = PasswordHasher.prehash(password)
        let cost = self.cost
        return try await pool.runIfActive { Bcrypt.hash(input, cost: cost) }
    }

    /// Whether the password matches the hash.
    package func verify(_ password: String, hash: String) async throws -> Bool {
        let input = PasswordHasher.prehash(password)
        return try await pool.runIfActive { Bcrypt.verify(input, hash: hash) }
    }
}

/// The places of ``PasswordHasher``'s bound: how many checks are admitted, and how many of them
/// are for new accounts.
final class PasswordCheckPlaces: Sendable {
    private struct Taken {
        var all = 0
        var newAccounts = 0
    }

    private let capacity: Int
    private let taken = Mutex(Taken())

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Takes a place, or says there is none for `purpose`.
    func enter(_ purpose: PasswordHasher.Purpose) -> Bool {
        taken.withLock { taken in
            guard taken.all < capacity else { return false }
            if purpose == .newAccount {
                guard taken.newAccounts < capacity / 2 else { return false }
                taken.newAccounts += 1
            }
            taken.all += 1
            return true
        }
    }

    /// Gives a place back.
    func leave(_ purpose: PasswordHasher.Purpose) {
        taken.withLock { taken in
            taken.all -= 1
            if purpose == .newAccount { taken.newAccounts -= 1 }
        }
    }
}
