import BazaarServer
import BazaarStorage
import Logging

extension BazaarServer {
    /// A server on the engine `configuration` names (``StorageEngines/engine(for:)``).
    public init(configuration: BazaarServerConfiguration, logger: Logger = Logger(label: "bazaar-server")) async throws
    {
        try await self.init(
            configuration: configuration, storage: StorageEngines.engine(for: configuration), logger: logger)
    }

    /// Starts a server in this process on the engine `configuration` names, and returns once it
    /// listens; ``RunningBazaarServer/stop()`` ends it.
    public static func start(
        configuration: BazaarServerConfiguration, logger: Logger = Logger(label: "bazaar-server")
    ) async throws -> RunningBazaarServer {
        try await start(
            configuration: configuration, storage: StorageEngines.engine(for: configuration), logger: logger)
    }
}
