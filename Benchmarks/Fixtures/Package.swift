// swift-tools-version: 6.1
// The services the dependency-resolution benchmarks register, shared by the Resolve suite (Bazaar's
// DependencyManager and Swinject) and the PointFree package (swift-dependencies, whose module name
// clashes with Bazaar's Dependencies and so cannot be built in the same package graph).
import PackageDescription

let package = Package(
    name: "BenchFixtures",
    platforms: [.macOS(.v15)],
    products: [.library(name: "ResolveFixtures", targets: ["ResolveFixtures"])],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"])
    ],
    targets: [
        .target(
            name: "ResolveFixtures",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
