import ArgumentParser
import BazaarServer
import Foundation

/// `bazaar-server photos rebuild`: gives sizes to photos uploaded before the server made them.
struct PhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos", abstract: "Work on the stored photos: rebuild.",
        subcommands: [Rebuild.self])

    /// `photos rebuild`.
    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give every photo uploaded before sizes its thumb, medium and full sizes.",
            discussion: """
                Each photo is decoded as an upload is today (orientation applied, every metadata block
                dropped, three sizes written) and the upload as it came is emptied, in one transaction per
                photo. Run it once after upgrading, while the server serves if you like: it is idempotent
                (a second run finds nothing to do) and resumable (stopped anywhere, the next run goes on
                where it stopped). A photo that does not decode is left as it was and named; the command
                then exits 65. A running server's cached product pages show the new sizes' dimensions
                after its next listing change or restart.

                Examples:
                  bazaar-server photos rebuild --sqlite bazaar.sqlite
                  bazaar-server photos rebuild --postgres postgres://bazaar@127.0.0.1/bazaar
                """)
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let outcome = try await ModeratorsCommand.withStore(database) { store in
                try await PhotoRebuild(store: store).run { _, outcome in
                    let done = outcome.converted + outcome.unreadable.count + outcome.convertedElsewhere
                    if done % 100 == 0 { print("\(done) photos so far") }
                }
            }
            print("photos rebuilt: \(outcome.converted) converted, \(outcome.unreadable.count) unreadable")
            guard outcome.unreadable.isEmpty else {
                let list = outcome.unreadable.map { "  \($0)\n" }.joined()
                FileHandle.standardError.write(
                    Data("bazaar-server: these photos do not decode and were left as they were:\n\(list)".utf8))
                throw ExitCode(65)
            }
        }
    }
}
