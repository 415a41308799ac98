import ArgumentParser

/// `bazaar-server`: serves the API (`serve`, the default, so `bazaar-server --port 8080` still
/// runs the server), and the operator's commands on the same database (`moderators`, `photos`,
/// `backup`, `restore`).
@main
struct BazaarServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bazaar-server",
        abstract: "Runs the Bazaar marketplace API server, and the operator's commands on its database.",
        discussion: """
            With no subcommand it serves (see 'bazaar-server serve --help' for every option).

            Examples:
              bazaar-server --port 8080 --sqlite bazaar.sqlite
              bazaar-server moderators add ada --sqlite bazaar.sqlite
              bazaar-server photos rebuild --sqlite bazaar.sqlite
              bazaar-server backup --sqlite bazaar.sqlite --to /backups/bazaar.sqlite
              bazaar-server restore --from /backups/bazaar.sqlite --sqlite restored.sqlite
            """,
        subcommands: [
            ServeCommand.self, ModeratorsCommand.self, PhotosCommand.self, BackupCommand.self, RestoreCommand.self,
        ],
        defaultSubcommand: ServeCommand.self)
}
