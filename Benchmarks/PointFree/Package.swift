// swift-tools-version: 6.1
// swift-dependencies' resolution, for the same registrations as ../Benchmarks/Resolve. A package of its
// own because its module is named Dependencies, like Bazaar's: the two cannot share a package graph.
// Run with ../run.sh (both packages, one table) or `swift package benchmark` here.
import PackageDescription

let package = Package(
    name: "PointFreeBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../Fixtures"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    ],
    targets: [
        .executableTarget(
            name: "ResolvePointFree",
            dependencies: [
                .product(name: "ResolveFixtures", package: "Fixtures"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            path: "Benchmarks/ResolvePointFree",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility"),
            ],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
