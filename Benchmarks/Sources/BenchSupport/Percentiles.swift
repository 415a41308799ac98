/// Percentiles of a set of durations (nearest rank), in milliseconds.
public struct Percentiles: Sendable {
    /// How many samples.
    public let count: Int
    private let sorted: [Double]

    /// Sorts the samples.
    public init(_ samples: [Duration]) {
        sorted = samples.map { $0 / .milliseconds(1) }.sorted()
        count = sorted.count
    }

    /// The `p`-th percentile (0-100) in milliseconds; 0 with no samples.
    public func at(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]
    }

    /// The largest sample.
    public var max: Double { sorted.last ?? 0 }
}
