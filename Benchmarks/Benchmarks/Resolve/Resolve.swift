import Benchmark
import Dependencies
import ResolveFixtures
import Swinject

// DependencyManager.resolve beside Swinject's Container.resolve for the same registrations: two leaf
// services and one that depends on both, in a container that also holds forty other registrations.
// "shared" hands out one instance; "new instance" makes a new one on every resolve (its two
// dependencies stay shared). swift-dependencies runs the same in the ResolvePointFree target: its
// module is also named Dependencies, so it cannot be imported beside Bazaar's in one target.

let benchmarks: @Sendable () -> Void = {
    let ours = Dependencies(container: makeOurContainer())
    let swinject = makeSwinjectContainer()

    Benchmark("Resolve shared: DependencyManager", configuration: resolveConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try ours.resolve((any CatalogService).self))
        }
    }
    Benchmark("Resolve shared: Swinject", configuration: resolveConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(swinject.resolve((any CatalogService).self))
        }
    }
    Benchmark("Resolve new instance: DependencyManager", configuration: resolveConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try ours.resolve(NewCatalog.self))
        }
    }
    Benchmark("Resolve new instance: Swinject", configuration: resolveConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(swinject.resolve(NewCatalog.self))
        }
    }
}
