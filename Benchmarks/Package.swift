// swift-tools-version: 6.1
// Bazaar's benchmarks, load and fan-out tools: a package of their own so the main build and CI stay
// light. Run the benchmarks with `swift package benchmark` from this folder; see ../BENCHMARKS.md.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "BazaarBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Bazaar", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
        .package(path: "Fixtures"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ],
    targets: [
        // MARK: Shared by the benchmarks and tools: a release-built bazaar-server as a child process.
        .target(
            name: "BenchSupport",
            dependencies: [
                .product(name: "BazaarAPI", package: "Bazaar"),
                .product(name: "ProcessSupport", package: "Bazaar"),
                .product(name: "Networking", package: "Bazaar"),
                .product(name: "NetworkingAsyncHTTPClient", package: "Bazaar"),
                .product(name: "Session", package: "Bazaar"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ],
            swiftSettings: strict
        ),

        // MARK: ordo-one/benchmark suites (each figure beside its yardstick in the same run)
        .executableTarget(
            name: "ClientStack",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Networking", package: "Bazaar"),
                .product(name: "NetworkingAsyncHTTPClient", package: "Bazaar"),
                .product(name: "Session", package: "Bazaar"),
                .product(name: "BazaarAPI", package: "Bazaar"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            path: "Benchmarks/ClientStack",
            swiftSettings: strict,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Resolve",
            dependencies: [
                .product(name: "ResolveFixtures", package: "Fixtures"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Dependencies", package: "Bazaar"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            path: "Benchmarks/Resolve",
            swiftSettings: strict,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        // MARK: Profiling, load and fan-out tools
        .executableTarget(
            name: "client-profile",
            dependencies: [
                "BenchSupport",
                .product(name: "BazaarAPI", package: "Bazaar"),
                .product(name: "Networking", package: "Bazaar"),
                .product(name: "NetworkingAsyncHTTPClient", package: "Bazaar"),
                .product(name: "Session", package: "Bazaar"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "bare-route",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fanout",
            dependencies: [
                "BenchSupport",
                .product(name: "BazaarAPI", package: "Bazaar"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "security-load",
            dependencies: [
                "BenchSupport",
                .product(name: "BazaarAPI", package: "Bazaar"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
