import Foundation
import ProcessSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A release-built `bazaar-server` running as a child process on a free loopback port, for
/// benchmarks and load tools that must measure the server as operators run it.
///
/// The binary is `$BAZAAR_SERVER_BINARY` when set, else `<repository>/.build/release/bazaar-server`,
/// built with `swift build -c release --product bazaar-server` when missing.
public final class ServerProcess: @unchecked Sendable {
    // @unchecked: `process` and `folder` are set once in `init` and only read afterwards; `stop()`
    // is called by the owner once, after every user of `baseURL` has finished.
    private let process: BazaarProcess
    private let folder: URL
    /// Where the server listens, as it printed it.
    public let baseURL: URL
    /// The port of ``baseURL``.
    public var port: Int { baseURL.port ?? 0 }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// In words.
        public let description: String
    }

    /// The repository this package sits in (the folder holding the main Package.swift).
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // BenchSupport
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // Benchmarks
            .deletingLastPathComponent()  // repository
    }

    /// The path of the release `bazaar-server`, building it first when it is missing.
    public static func releaseBinary() throws -> String {
        if let path = ProcessInfo.processInfo.environment["BAZAAR_SERVER_BINARY"] { return path }
        let path = repositoryRoot.appendingPathComponent(".build/release/bazaar-server").path
        if !FileManager.default.isExecutableFile(atPath: path) {
            FileHandle.standardError.write(Data("building bazaar-server in release mode (once)…\n".utf8))
            let build = Process()
            build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            build.arguments = ["swift", "build", "-c", "release", "--product", "bazaar-server"]
            build.currentDirectoryURL = repositoryRoot
            try build.run()
            build.waitUntilExit()
            guard build.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: path) else {
                throw StartError(description: "swift build -c release --product bazaar-server failed")
            }
        }
        return path
    }

    /// Starts the server on a free port with a new SQLite file in a temporary folder.
    ///
    /// - Parameters:
    ///   - bcryptCost: 4 keeps seeding fast; pass 10 (the server's default) to measure real logins.
    ///   - port: 0 for a free port, or a fixed one (to restart on the same address).
    ///   - folder: where the database lives; a new temporary folder when `nil`.
    ///   - quotas: whether the server's write quotas (register and sign-in included) apply; off by
    ///     default, so seeding thousands of users from one address is not refused.
    ///   - extraArguments: more `bazaar-server` options.
    public init(
        bcryptCost: Int = 4, port: Int = 0, folder: URL? = nil, quotas: Bool = false, extraArguments: [String] = []
    ) throws {
        let binary = try Self.releaseBinary()
        let folder =
            folder
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("bazaar-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.folder = folder
        process = try BazaarProcess(
            sqlitePath: folder.appendingPathComponent("bazaar.sqlite").path, port: port, executablePath: binary,
            bcryptCost: bcryptCost,
            extraArguments: ["--access-token-lifetime", "86400"] + (quotas ? [] : ["--no-quotas"]) + extraArguments)
        baseURL = process.baseURL
    }

    /// The child's process id (to read its CPU time).
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Stops the server with SIGTERM, waits, and removes its temporary folder.
    public func stop() {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: folder)
    }
}
