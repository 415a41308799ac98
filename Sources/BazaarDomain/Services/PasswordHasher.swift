import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Hashes and checks passwords with bcrypt, off the request threads.
///
/// The password is first reduced with SHA-256 (base64), so bcrypt's 72-byte limit and its
/// C-string handling never cut a long password or one containing NUL.
package struct PasswordHasher: Sendable {
    package let cost: UInt8
    /// A hash of a random secret, checked for unknown usernames so they cost as much as known ones.
    package let decoyHash: String

    package init(cost: Int) {
        self.cost = UInt8(min(max(cost, 4), 31))
        decoyHash = Bcrypt.hash(Self.prehash(UUID().uuidString), cost: self.cost)
    }

    /// A new bcrypt hash of the password.
    package func hash(_ password: String) async throws -> String {
        let input = Self.prehash(password)
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(input, cost: cost) }
    }

    /// Whether the password matches the hash.
    package func verify(_ password: String, hash: String) async throws -> Bool {
        let input = Self.prehash(password)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(input, hash: hash) }
    }

    package static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}
