// swift-tools-version: 6.1
// Bazaar: a modular Swift client kit, the marketplace app built on it, and its server.
// Targets are grouped as the architecture is: contract, client kit, server, executables, test support.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Bazaar",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "BazaarAPI", targets: ["BazaarAPI"]),
        .library(name: "Networking", targets: ["Networking"]),
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
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
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
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
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
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
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
            dependencies: ["BazaarAPI", "VipsShim", .product(name: "NIOPosix", package: "swift-nio")],
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
            dependencies: [.product(name: "ConsoleKitTerminal", package: "console-kit")],
            swiftSettings: strict
        ),

        // MARK: Web UI (HTML rendering of the feature modules' states; knows no concrete feature)
        .target(
            name: "WebUI",
            dependencies: [
                "Dependencies", "BazaarAPI", "Networking",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: strict
        ),

        // MARK: Server
        // Search terms as the product index makes them: SQLite FTS5's porter stemmer (through
        // GRDB, as a text library, not as a database), shared by both engines and the HTTP layer.
        .target(
            name: "BazaarSearch",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict
        ),
        // The storage interface: the store protocol and its records, the conversions both engines
        // share, the login throttle and live-event bus protocols, and the engine protocol. No driver.
        .target(
            name: "BazaarStorage",
            dependencies: [
                "BazaarAPI", "BazaarSearch",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The SQLite engine (GRDB): one server, one file.
        .target(
            name: "BazaarSQLite",
            dependencies: [
                "BazaarAPI", "BazaarStorage", "BazaarSearch",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The PostgreSQL engine (postgres-nio) with its event listener: replicas on one database.
        .target(
            name: "BazaarPostgres",
            dependencies: [
                "BazaarAPI", "BazaarStorage", "BazaarSearch",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // For ConnectionPoolError, which PostgresClient throws when its circuit breaker trips.
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
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
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The server: HTTP, authentication, live events, connection policy. It imports
        // no database driver: storage reaches it as a StorageEngine.
        .target(
            name: "BazaarServer",
            dependencies: [
                "BazaarAPI", "BazaarStorage", "BazaarSearch", "BazaarDomain", "BazaarImages", "DemoPictures",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        // The composition root of the server: the engine a configuration names, and the server on it.
        .target(
            name: "BazaarServerRuntime",
            dependencies: [
                "BazaarAPI", "BazaarServer", "BazaarStorage", "BazaarSQLite", "BazaarPostgres",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),

        // Trace export over OTLP (swift-otel), switched on by a composition root: bazaar-server, the app.
        .target(
            name: "BazaarTelemetry",
            dependencies: [
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),

        // MARK: Executables (composition roots)
        .executableTarget(
            name: "bazaar-server",
            dependencies: [
                "BazaarServer", "BazaarServerRuntime", "BazaarStorage", "BazaarSQLite", "BazaarDomain",
                "BazaarTelemetry",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),

        // Fills a database with a generated catalogue for scale benchmarks (issue 17).
        .executableTarget(
            name: "bazaar-datagen",
            dependencies: [
                "BazaarServer", "BazaarAPI", "BazaarStorage", "BazaarSearch", "BazaarSQLite", "BazaarPostgres",
                "BazaarDomain", "DemoPictures",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // The app: commands, renderers and the composition root (CompositionRoot), as a library so
        // that two executables can run it. It links no server: it talks to one by its URL.
        .target(
            name: "BazaarApp",
            dependencies: [
                "Dependencies", "Networking", "Session", "BazaarAPI", "TerminalUI",
                "Profile", "Products", "Chat", "Notifications", "Favourites", "Offers", "Reviews", "Account",
                "Moderation", "LiveEvents", "WebUI", "DemoPictures", "BazaarTelemetry",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ConsoleKitTerminal", package: "console-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
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
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
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
                "ProcessSupport", "BazaarAPI", "Networking", "Session",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),

        // MARK: Test support (used only by test targets)
        .target(
            name: "TestSupport",
            dependencies: [
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
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),

        // MARK: Tests
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", .product(name: "ConsoleKitTerminal", package: "console-kit")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "bazaar", "bazaar-demo", "BazaarApp", "BazaarAPI", "BazaarServer", "BazaarServerRuntime",
                "Dependencies", "Networking", "Session", "TestSupport", "TerminalUI",
                "Chat",
                .product(name: "ConsoleKitTerminal", package: "console-kit"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
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
                "Networking",
                "TestSupport",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
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
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WebUITests",
            dependencies: [
                "WebUI", "Dependencies", "BazaarAPI",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
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
            dependencies: ["Products", "Dependencies", "Session", "Networking", "BazaarAPI", "TestSupport"],
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
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                "bazaar-server",
                "BazaarTelemetry",
                "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
