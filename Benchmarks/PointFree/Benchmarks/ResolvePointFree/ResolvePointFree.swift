import Benchmark
import Dependencies
import ResolveFixtures

// swift-dependencies' @Dependency for the registrations of ../Benchmarks/Resolve (same services, same
// lifetimes). It lives in a package of its own because its module, like Bazaar's, is named
// Dependencies; ../run.sh runs both packages in one run and ratios.py pairs the figures.

let benchmarks: @Sendable () -> Void = {
    Benchmark("Resolve shared: swift-dependencies", configuration: resolveConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            @Dependency(\.catalog) var catalog
            blackHole(catalog)
        }
    }

    Benchmark("Resolve new instance: swift-dependencies", configuration: resolveConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            @Dependency(\.makeCatalog) var makeCatalog
            blackHole(makeCatalog())
        }
    }
}
