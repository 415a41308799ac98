import Benchmark

/// Resolution takes nanoseconds: many iterations per sample, the same settings for every container.
public var resolveConfiguration: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .nanoseconds, warmupIterations: 1_000,
        scalingFactor: .kilo, maxDuration: .seconds(3))
}
