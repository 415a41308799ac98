import ArgumentParser
import BazaarApp
import Foundation

/// `bazaar-demo`: the app walked through against a Bazaar server in this process, or served to a
/// browser beside one. The composition of the app and the server: the only executable that links
/// both (`bazaar` talks to a server by its URL and links none).
@main
struct BazaarDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bazaar-demo",
        abstract: "Watch the whole Bazaar app run against a built-in server (nothing to set up).",
        discussion: """
            Starts a Bazaar server in this process on a free port with a temporary SQLite file and
            demo data, then walks through the app: two people, registering, browsing and searching,
            a chat with a live reply, renaming, a photo upload, notifications, a message sent while
            the server is down and delivered once it is back, signing out. Everything is removed
            at the end.

            Examples:
              bazaar-demo
              bazaar-demo --fast --no-color
              bazaar-demo web            # the browser app beside a demo server
            """,
        subcommands: [Walk.self, Web.self], defaultSubcommand: Walk.self)

    /// The walk-through (the default).
    struct Walk: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "walk", abstract: "Walk through the app against a server in this process (the default).")

        @Flag(help: "Skip the pauses between steps.") var fast = false
        @Flag(help: "No colours or animation.") var noColor = false

        func run() async throws {
            try await DemoRun(fast: fast, noColor: noColor).run(servers: InProcessDemoServers())
        }
    }

    /// `bazaar web` beside a demo server.
    struct Web: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "web",
            abstract:
                "Serve the browser app on 127.0.0.1 beside a server with demo data (users ada, bob, cyd; password bazaar-demo)."
        )

        @Option(help: "The port to listen on, on 127.0.0.1 (0 picks a free one).") var port = 0

        func validate() throws {
            guard (0...65535).contains(port) else {
                throw ValidationError("--port must be between 0 and 65535 (got \(port))")
            }
        }

        func run() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "bazaar-web-demo-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let server = try await InProcessDemoServers().start(
                database: folder.appendingPathComponent("bazaar.sqlite").path, port: 0)
            do {
                try await WebServing(port: port).serve(
                    serverURL: server.baseURL.absoluteString, configFolder: folder.appendingPathComponent("app").path)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        }
    }
}
