import ArgumentParser

/// `security-load`: what the server's defences cost and whether they hold, against a release
/// `bazaar-server` started here (issue 32's figures in BENCHMARKS.md).
@main
struct SecurityLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "security-load",
        abstract: "Measures sign-in latency under a registration flood and memory under many filter variants.",
        subcommands: [LoginFlood.self, CacheMemory.self])
}
