// swift-tools-version: 6.1
// Bazaar: a modular Swift client kit, the marketplace app built on it, and its server.
// Targets are grouped as the architecture is: contract, client kit, server, executables, test support.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// A product that only the marketplace's targets use (the server, its engines, the app, the tools,
/// the tests): with the `Marketplace` trait off, as for an adopter of the kit alone, its package
/// is not even resolved.
func marketplace(_ name: String, _ package: String) -> Target.Dependency {
    .product(name: name, package: package, condition: .when(traits: ["Marketplace"]))
}

/// A product of the AsyncHTTPClient transport's stack (SwiftNIO, AsyncHTTPClient): resolved only
/// with the `AsyncHTTPClient` trait, which a Linux adopter of the kit turns on.
func asyncHTTPClient(_ name: String, _ package: String) -> Target.Dependency {
    .product(name: name, package: package, condition: .when(traits: ["AsyncHTTPClient", "Marketplace"]))
}

/// swift-metrics, for NetworkingMetrics: resolved only with the `Metrics` trait (or the whole package).
func metrics(_ name: String) -> Target.Dependency {
    .product(name: name, package: "swift-metrics", condition: .when(traits: ["Metrics", "Marketplace"]))
}

let package = Package(
    name: "Bazaar",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "BazaarAPI", targets: ["BazaarAPI"]),
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "NetworkingAsyncHTTPClient", targets: ["NetworkingAsyncHTTPClient"]),
        .library(name: "NetworkingTesting", targets: ["NetworkingTesting"]),
        .library(name: "NetworkingMetrics", targets: ["NetworkingMetrics"]),
        .library(name: "Session", targets: ["Session"]),
        .library(name: "Dependencies", targets: ["Dependencies"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "WebUI", targets: ["WebUI"]),
        .library(name: "BazaarDomain", targets: ["BazaarDomain"]),
        .library(name: "BazaarServer", targets: ["BazaarServer"]),
        .library(name: "BazaarServerRuntime", targets: ["BazaarServerRuntime"]),
        .executable(name: "bazaar-server", targets: ["bazaar-server"]),
        .executable(name: "bazaar-datagen", targets: ["bazaar-datagen"]),
        .executable(name: "bazaar", targets: ["bazaar"]),
        .executable(name: "bazaar-demo", targets: ["bazaar-demo"]),
        .executable(name: "bazaar-reliability", targets: ["bazaar-reliability"]),
        // The real bazaar-server as a child process, for tests and for the Benchmarks package.
        .library(name: "ProcessSupport", targets: ["ProcessSupport"]),
    ],
    // What an adopter of the kit resolves: with `traits: []` only the kit's own dependencies
    // (swift-http-types, swift-log, swift-distributed-tracing); `AsyncHTTPClient` adds SwiftNIO and
    // AsyncHTTPClient for NetworkingAsyncHTTPClient. `Marketplace` is everything else: the server,
    // its engines, the app and the tools. A package's default traits are both, so this one builds whole.
    traits: [
        .trait(name: "AsyncHTTPClient", description: "The kit's AsyncHTTPClient transport, on SwiftNIO."),
        .trait(name: "Metrics", description: "NetworkingMetrics: the kit's request metrics in swift-metrics."),
        .trait(name: "Marketplace", description: "The server, both storage engines, the app and the tools."),
        .default(enabledTraits: ["AsyncHTTPClient", "Marketplace"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/vapor/console-kit", from: "4.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // Traces over OTLP/HTTP only: the gRPC exporter's packages are not built.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        // `swift package generate-documentation` for the kit's DocC catalogs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: Contract (shared by client and server)
        .target(
            name: "BazaarAPI",
            swiftSettings: strict
        ),

        // MARK: Client kit (Core Services)
        .target(
            name: "Networking",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        // The AsyncHTTPClient transport, a product of its own: an app on URLSession takes no SwiftNIO.
        .target(
            name: "NetworkingAsyncHTTPClient",
            dependencies: [
                "Networking",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                asyncHTTPClient("NIOCore", "swift-nio"),
                asyncHTTPClient("NIOPosix", "swift-nio"),
                asyncHTTPClient("NIOHTTP1", "swift-nio"),
                asyncHTTPClient("NIOHTTPCompression", "swift-nio-extras"),
                asyncHTTPClient("NIOFoundationCompat", "swift-nio"),
                asyncHTTPClient("AsyncHTTPClient", "async-http-client"),
                // Both already in AsyncHTTPClient's closure (through swift-nio-extras): pinning
                // adds no package to an adopter's resolve.
                asyncHTTPClient("NIOSSL", "swift-nio-ssl"),
                asyncHTTPClient("NIOTLS", "swift-nio"),
                asyncHTTPClient("Crypto", "swift-crypto"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        // A transport with no network, for adopters' tests: stubs, recorded exchanges, latency, failures.
        .target(
            name: "NetworkingTesting",
            dependencies: [
                "Networking",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        // Request metrics in swift-metrics, as a RequestEventMonitor.
        .target(
            name: "NetworkingMetrics",
            dependencies: ["Networking", metrics("CoreMetrics")],
            swiftSettings: strict
        ),
        .target(
            name: "Session",
            dependencies: ["Networking", "BazaarAPI"],
            swiftSettings: strict
        ),
        .target(
            name: "Dependencies",
            dependencies: ["BazaarAPI", "Networking"],
            swiftSettings: strict
        ),

        // The signed-in user's live-events socket (`/v1/events`), one per user, which every feature
        // watches through Dependencies' LiveEventSource; reconnects, catches up, refreshes its token.
        .target(
            name: "LiveEvents",
            dependencies: [
                "Dependencies", "Networking", "Session", "BazaarAPI",
                marketplace("NIOCore", "swift-nio"),
                marketplace("NIOPosix", "swift-nio"),
                marketplace("NIOHTTP1", "swift-nio"),
                marketplace("NIOWebSocket", "swift-nio"),
                marketplace("NIOSSL", "swift-nio-ssl"),
                marketplace("Logging", "swift-log"),
            ],
            swiftSettings: strict
        ),

        // MARK: Feature modules (each imports only Dependencies, Networking, Session, BazaarAPI)
        .target(
            name: "Profile",
            dependencies: ["Dependencies", "Networking", "Session", "BazaarAPI"],
            swiftSettings: strict
        ),
        .target(
            name: "Products",
            dependencies: ["Dependencies", "Networking", "Session", "BazaarAPI"],
            swiftSettings: strict
        ),
        .target(
            name: "Chat",
            dependencies: [
                "Dependencies", "Networking", "Session", "BazaarAPI",
                marketplace("GRDB", "GRDB.swift"),
                marketplace("HTTPTypes", "swift-http-types"),
                marketplace("Logging", "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "Notifications",
            dependencies: ["Dependencies", "Networking", "Session", "BazaarAPI"],
            swiftSettings: strict
        ),
        .target(
            name: "Favourites",
            dependencies: ["Dependencies", "Networking", "Session", "BazaarAPI"],
            swiftSettings: strict
        ),
        .target(
            name: "Offers",
            dependencies: ["Dependencies", "Networking", "Session", "BazaarAPI"],
            swiftSettings: strict
        ),
        .target(
            name: "Reviews",
            dependencies: ["Dependencies", "Networking", "Session", "BazaarAPI"],
            swiftSettings: strict
        ),
        // MARK: Images (the server's photo pipeline, on libvips)
        .systemLibrary(
            name: "CVips", path: "Sources/CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .target(name: "VipsShim", dependencies: ["CVips"], path: "Sources/VipsShim"),
        // Pictures drawn in plain Swift for the demo data and generated catalogues.
        .target(name: "DemoPictures", swiftSettings: strict),
        .target(
            name: "BazaarImages",
            dependencies: ["BazaarAPI", "VipsShim", marketplace("NIOPosix", "swift-nio")],
            swiftSettings: strict),
        .target(
            name: "Account",
            dependencies: ["Dependencies", "Networking", "Session", "BazaarAPI"],
            swiftSettings: strict
        ),
        .target(
            name: "Moderation",
            dependencies: ["Dependencies", "Networking", "Session", "BazaarAPI"],
            swiftSettings: strict
        ),

        // MARK: Core UI (terminal rendering primitives; knows no feature)
        .target(
            name: "TerminalUI",
            dependencies: [marketplace("ConsoleKitTerminal", "console-kit")],
            swiftSettings: strict
        ),

        // MARK: Web UI (HTML rendering of the feature modules' states; knows no concrete feature)
        .target(
            name: "WebUI",
            dependencies: [
                "Dependencies", "BazaarAPI", "Networking",
                marketplace("Hummingbird", "hummingbird"),
                marketplace("Crypto", "swift-crypto"),
                marketplace("HTTPTypes", "swift-http-types"),
                marketplace("NIOCore", "swift-nio"),
                marketplace("Logging", "swift-log"),
                marketplace("Mustache", "swift-mustache"),
            ],
            swiftSettings: strict
        ),

        // MARK: Server
        // Search terms as the product index makes them: SQLite FTS5's porter stemmer (through
        // GRDB, as a text library, not as a database), shared by both engines and the HTTP layer.
        .target(
            name: "BazaarSearch",
            dependencies: [marketplace("GRDB", "GRDB.swift")],
            swiftSettings: strict
        ),
        // The storage interface: the store protocol and its records, the conversions both engines
        // share, the login throttle and live-event bus protocols, and the engine protocol. No driver.
        .target(
            name: "BazaarStorage",
            dependencies: [
                "BazaarAPI", "BazaarSearch",
                marketplace("Crypto", "swift-crypto"),
                marketplace("Logging", "swift-log"),
                marketplace("ServiceLifecycle", "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The SQLite engine (GRDB): one server, one file.
        .target(
            name: "BazaarSQLite",
            dependencies: [
                "BazaarAPI", "BazaarStorage", "BazaarSearch",
                marketplace("GRDB", "GRDB.swift"),
                marketplace("NIOPosix", "swift-nio"),
                marketplace("Logging", "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The PostgreSQL engine (postgres-nio) with its event listener: replicas on one database.
        .target(
            name: "BazaarPostgres",
            dependencies: [
                "BazaarAPI", "BazaarStorage", "BazaarSearch",
                marketplace("PostgresNIO", "postgres-nio"),
                // For ConnectionPoolError, which PostgresClient throws when its circuit breaker trips.
                marketplace("_ConnectionPoolModule", "postgres-nio"),
                marketplace("NIOSSL", "swift-nio-ssl"),
                marketplace("NIOCore", "swift-nio"),
                marketplace("NIOPosix", "swift-nio"),
                marketplace("Logging", "swift-log"),
                marketplace("ServiceLifecycle", "swift-service-lifecycle"),
                marketplace("Tracing", "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        // The marketplace's rules, each written once over BazaarStorage and run on every engine:
        // services decide (validation, quotas, idempotency, what is stored and published); the
        // store applies their write plans in one transaction.
        .target(
            name: "BazaarDomain",
            dependencies: [
                "BazaarAPI", "BazaarStorage",
                marketplace("HummingbirdBcrypt", "hummingbird-auth"),
                marketplace("Crypto", "swift-crypto"),
                marketplace("NIOPosix", "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The server: HTTP, authentication, live events, connection policy. It imports
        // no database driver: storage reaches it as a StorageEngine.
        .target(
            name: "BazaarServer",
            dependencies: [
                "BazaarAPI", "BazaarStorage", "BazaarSearch", "BazaarDomain", "BazaarImages", "DemoPictures",
                marketplace("Hummingbird", "hummingbird"),
                marketplace("HummingbirdWebSocket", "hummingbird-websocket"),
                marketplace("HTTPTypes", "swift-http-types"),
                marketplace("HummingbirdCore", "hummingbird"),
                marketplace("NIOCore", "swift-nio"),
                marketplace("NIOHTTP1", "swift-nio"),
                marketplace("NIOPosix", "swift-nio"),
                marketplace("NIOWebSocket", "swift-nio"),
                marketplace("JWTKit", "jwt-kit"),
                marketplace("Crypto", "swift-crypto"),
                marketplace("Logging", "swift-log"),
                marketplace("Metrics", "swift-metrics"),
                marketplace("Prometheus", "swift-prometheus"),
                marketplace("ServiceLifecycle", "swift-service-lifecycle"),
                marketplace("ZIPFoundation", "ZIPFoundation"),
                marketplace("Tracing", "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        // The composition root of the server: the engine a configuration names, and the server on it.
        .target(
            name: "BazaarServerRuntime",
            dependencies: [
                "BazaarAPI", "BazaarServer", "BazaarStorage", "BazaarSQLite", "BazaarPostgres",
                marketplace("Logging", "swift-log"),
                marketplace("Tracing", "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),

        // Trace export over OTLP (swift-otel), switched on by a composition root: bazaar-server, the app.
        .target(
            name: "BazaarTelemetry",
            dependencies: [
                marketplace("OTel", "swift-otel"),
                marketplace("Tracing", "swift-distributed-tracing"),
                marketplace("Logging", "swift-log"),
                marketplace("ServiceLifecycle", "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),

        // MARK: Executables (composition roots)
        .executableTarget(
            name: "bazaar-server",
            dependencies: [
                "BazaarServer", "BazaarServerRuntime", "BazaarStorage", "BazaarSQLite", "BazaarDomain",
                "BazaarTelemetry",
                marketplace("ArgumentParser", "swift-argument-parser"),
                marketplace("Configuration", "swift-configuration"),
                marketplace("Logging", "swift-log"),
                marketplace("NIOCore", "swift-nio"),
                marketplace("ServiceLifecycle", "swift-service-lifecycle"),
                marketplace("UnixSignals", "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),

        // Fills a database with a generated catalogue for scale benchmarks (issue 17).
        .executableTarget(
            name: "bazaar-datagen",
            dependencies: [
                "BazaarServer", "BazaarAPI", "BazaarStorage", "BazaarSearch", "BazaarSQLite", "BazaarPostgres",
                "BazaarDomain", "DemoPictures",
                marketplace("GRDB", "GRDB.swift"),
                marketplace("PostgresNIO", "postgres-nio"),
                marketplace("ArgumentParser", "swift-argument-parser"),
                marketplace("Logging", "swift-log"),
            ],
            swiftSettings: strict
        ),

        // The app: commands, renderers and the composition root (CompositionRoot), as a library so
        // that two executables can run it. It links no server: it talks to one by its URL.
        .target(
            name: "BazaarApp",
            dependencies: [
                "NetworkingAsyncHTTPClient",
                "Dependencies", "Networking", "Session", "BazaarAPI", "TerminalUI",
                "Profile", "Products", "Chat", "Notifications", "Favourites", "Offers", "Reviews", "Account",
                "Moderation", "LiveEvents", "WebUI", "DemoPictures", "BazaarTelemetry",
                marketplace("Hummingbird", "hummingbird"),
                marketplace("ArgumentParser", "swift-argument-parser"),
                marketplace("ConsoleKitTerminal", "console-kit"),
                marketplace("Logging", "swift-log"),
                marketplace("ServiceLifecycle", "swift-service-lifecycle"),
                marketplace("Tracing", "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        // `bazaar`: the app on the terminal and in the browser.
        .executableTarget(
            name: "bazaar",
            dependencies: ["BazaarApp"],
            swiftSettings: strict
        ),
        // `bazaar-demo`: the composition of the app and a server in one process (README's first command).
        .executableTarget(
            name: "bazaar-demo",
            dependencies: [
                "BazaarApp", "BazaarServer", "BazaarServerRuntime", "BazaarStorage", "BazaarAPI",
                marketplace("ArgumentParser", "swift-argument-parser"),
                marketplace("Logging", "swift-log"),
            ],
            swiftSettings: strict
        ),

        // MARK: Reliability (the real bazaar-server as a child process, raw TCP)
        // Child-process and raw-socket helpers shared by TestSupport and bazaar-reliability.
        .target(
            name: "ProcessSupport",
            swiftSettings: strict
        ),
        // The crash and malformed-input runs of issue 8, against the built bazaar-server (CI runs both).
        .executableTarget(
            name: "bazaar-reliability",
            dependencies: [
                "NetworkingAsyncHTTPClient",
                "ProcessSupport", "BazaarAPI", "Networking", "Session",
                marketplace("ArgumentParser", "swift-argument-parser"),
                marketplace("HTTPTypes", "swift-http-types"),
            ],
            swiftSettings: strict
        ),

        // MARK: Test support (used only by test targets)
        .target(
            name: "TestSupport",
            dependencies: [
                "NetworkingAsyncHTTPClient",
                "ProcessSupport",
                "BazaarAPI",
                "BazaarImages",
                "BazaarDomain",
                "BazaarServer",
                "BazaarServerRuntime",
                "BazaarStorage",
                "Networking",
                "Dependencies",
                "Session",
                marketplace("Hummingbird", "hummingbird"),
                marketplace("PostgresNIO", "postgres-nio"),
                marketplace("Logging", "swift-log"),
                marketplace("ServiceLifecycle", "swift-service-lifecycle"),
                marketplace("AsyncHTTPClient", "async-http-client"),
                marketplace("NIOCore", "swift-nio"),
                marketplace("NIOHTTP1", "swift-nio"),
                marketplace("WSClient", "swift-websocket"),
                marketplace("NIOWebSocket", "swift-nio"),
                marketplace("HTTPTypes", "swift-http-types"),
                marketplace("NIOSSL", "swift-nio-ssl"),
                marketplace("X509", "swift-certificates"),
                marketplace("SwiftASN1", "swift-asn1"),
                marketplace("Crypto", "swift-crypto"),
            ],
            swiftSettings: strict
        ),

        // MARK: Tests
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", marketplace("ConsoleKitTerminal", "console-kit")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "bazaar", "bazaar-demo", "BazaarApp", "BazaarAPI", "BazaarServer", "BazaarServerRuntime",
                "Dependencies", "Networking", "Session", "TestSupport", "TerminalUI",
                "Chat",
                marketplace("ConsoleKitTerminal", "console-kit"),
                marketplace("ArgumentParser", "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "BazaarAPITests",
            dependencies: ["BazaarAPI"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NetworkingTests",
            dependencies: [
                "NetworkingAsyncHTTPClient",
                "NetworkingTesting",
                "NetworkingMetrics",
                marketplace("MetricsTestKit", "swift-metrics"),
                "Networking",
                "TestSupport",
                marketplace("Tracing", "swift-distributed-tracing"),
                marketplace("InMemoryTracing", "swift-distributed-tracing"),
                marketplace("AsyncHTTPClient", "async-http-client"),
                marketplace("CompressNIO", "compress-nio"),
                marketplace("Hummingbird", "hummingbird"),
                marketplace("HTTPTypes", "swift-http-types"),
                marketplace("Logging", "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SessionTests",
            dependencies: [
                "Session",
                "Networking",
                "BazaarAPI",
                "BazaarServer",
                "BazaarServerRuntime",
                "TestSupport",
                marketplace("Hummingbird", "hummingbird"),
                marketplace("HTTPTypes", "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WebUITests",
            dependencies: [
                "WebUI", "Dependencies", "BazaarAPI",
                marketplace("HummingbirdTesting", "hummingbird"),
                marketplace("NIOPosix", "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "DependenciesTests",
            dependencies: [
                "Dependencies", "TestSupport", "Session", "BazaarAPI", "Profile", "Products", "Chat", "Notifications",
                "Favourites", "Offers", "Reviews", "Account", "Moderation",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ProfileTests",
            dependencies: ["Profile", "Dependencies", "Session", "Networking", "BazaarAPI", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChatTests",
            dependencies: [
                "Chat", "LiveEvents", "Dependencies", "Session", "Networking", "BazaarAPI", "BazaarServer",
                "BazaarServerRuntime",
                "TestSupport", "BazaarApp",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NotificationsTests",
            dependencies: ["Notifications", "Dependencies", "Session", "Networking", "BazaarAPI", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FavouritesTests",
            dependencies: ["Favourites", "Dependencies", "Session", "Networking", "BazaarAPI", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ReviewsTests",
            dependencies: ["Reviews", "Dependencies", "Session", "Networking", "BazaarAPI", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "BazaarImagesTests", dependencies: ["BazaarAPI", "BazaarImages", "DemoPictures", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AccountTests",
            dependencies: ["Account", "Dependencies", "Session", "Networking", "BazaarAPI", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ModerationTests",
            dependencies: ["Moderation", "Dependencies", "Session", "Networking", "BazaarAPI", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "OffersTests",
            dependencies: [
                "Offers", "LiveEvents", "Dependencies", "Session", "Networking", "BazaarAPI", "TestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ProductsTests",
            dependencies: [
                "Products", "Dependencies", "Session", "Networking", "NetworkingTesting", "BazaarAPI", "TestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "BazaarServerTests",
            dependencies: [
                "BazaarAPI",
                "BazaarServer",
                "BazaarServerRuntime",
                "BazaarStorage",
                "BazaarDomain",
                "BazaarSearch",
                "BazaarSQLite",
                "BazaarPostgres",
                "BazaarImages",
                marketplace("GRDB", "GRDB.swift"),
                marketplace("PostgresNIO", "postgres-nio"),
                "bazaar-server",
                "BazaarTelemetry",
                "TestSupport",
                marketplace("Hummingbird", "hummingbird"),
                marketplace("AsyncHTTPClient", "async-http-client"),
                marketplace("NIOCore", "swift-nio"),
                marketplace("NIOHTTP1", "swift-nio"),
                marketplace("WSClient", "swift-websocket"),
                marketplace("Yams", "Yams"),
                marketplace("ZIPFoundation", "ZIPFoundation"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
