import ArgumentParser

/// `bazaar`: the marketplace app on the terminal. The composition root: the only target that
/// imports concrete feature modules.
@main
struct BazaarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bazaar",
        abstract: "Bazaar, the second-hand marketplace, in your terminal.",
        subcommands: [OutboxCommand.self])
}
