import ArgumentParser
import Foundation

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

    /// Serving takes its settings from the command line, the environment and a configuration file
    /// (``ServeSettings``), and `--print-config` shows them; the operator's commands take the
    /// command line as it is.
    static func main() async {
        let given = Array(CommandLine.arguments.dropFirst())
        let operatorCommands = Set(
            configuration.subcommands.compactMap { command in
                command == ServeCommand.self ? nil : command.configuration.commandName ?? command._commandName
            } + ["help"])
        if let first = given.first, operatorCommands.contains(first) { return await main(given) }
        let serving = given.first == "serve" ? Array(given.dropFirst()) : given
        if serving.contains(where: { ["--help", "-h", "--experimental-dump-help", "--version"].contains($0) }) {
            return await main(given)
        }
        let environment = ProcessInfo.processInfo.environment
        let settings: ServeSettings
        do {
            settings = try await ServeSettings.resolve(arguments: serving, environment: environment)
        } catch {
            FileHandle.standardError.write(Data("bazaar-server: cannot read the configuration: \(error)\n".utf8))
            Foundation.exit(64)
        }
        if serving.contains("--print-config") {
            do {
                // Checked as the server would check them, so what is printed is what would run.
                _ = try ServeCommand.parse(settings.arguments)
            } catch {
                ServeCommand.exit(withError: error)
            }
            FileHandle.standardOutput.write(Data(settings.printed(environment: environment).utf8))
            return
        }
        await main(["serve"] + settings.arguments)
    }
}
