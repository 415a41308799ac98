import BazaarStorage
import Foundation
import Logging

/// Finds the access-token signing key: from configuration, from the key file, or newly generated.
enum SigningKeyStore {
    /// The key to use; generates and stores one (created with mode 0600) when neither configuration
    /// nor file has one. A key file others can read is refused.
    static func loadOrCreate(configuration: BazaarServerConfiguration, logger: Logger) throws -> Data {
        if let key = configuration.signingKey {
            guard key.count >= 32 else { throw ConfigurationError("the signing key must be at least 32 bytes") }
            return key
        }
        if configuration.postgres != nil {
            // A key of its own would make this replica refuse every other replica's tokens.
            throw ConfigurationError(
                "with PostgreSQL every replica must sign with the same key: set BAZAAR_SIGNING_KEY (base64, at least 32 bytes)"
            )
        }
        let path = configuration.signingKeyPath
        let manager = FileManager.default
        if manager.fileExists(atPath: path) {
            // Whoever can read the key can sign a token for any user.
            try PrivateFile.requireOwnerOnly(path, what: "the signing key file")
            guard let data = manager.contents(atPath: path), let key = Data(base64Encoded: data.trimmingNewlines()),
                key.count >= 32
            else { throw ConfigurationError("the signing key file \(path) is unreadable or too short") }
            return key
        }
        var key = Data(count: 32)
        for index in key.indices { key[index] = UInt8.random(in: .min ... .max) }
        try PrivateFile.write(Data(key.base64EncodedString().utf8), to: path)
        logger.notice("generated a new access-token signing key", metadata: ["path": "\(path)"])
        return key
    }
}

extension Data {
    fileprivate func trimmingNewlines() -> Data {
        Data(String(decoding: self, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
    }
}
