import ArgumentParser

/// `bazaar-reliability`: the reliability runs of issue 8, against the real `bazaar-server`
/// executable started as a child process on a temporary SQLite file.
///
/// The default (bounded) forms are what CI runs; a long form is the same run with bigger flags.
@main
struct ReliabilityCommand: AsyncParsableCommand {
    /// The command's name and help.
    static let configuration = CommandConfiguration(
        commandName: "bazaar-reliability",
        abstract: "Puts bazaar-server through crashes and malformed input and checks that it holds up.",
        discussion: """
            Each run starts the built bazaar-server (--server-binary, else $BAZAAR_SERVER_BINARY, else \
            the bazaar-server beside this executable: run swift build first) on a temporary SQLite \
            file, prints one line per finding, and exits non-zero with a one-line reason when a \
            check fails.
            """,
        subcommands: [CrashCommand.self, MalformedCommand.self, DownloadCommand.self]
    )
}
