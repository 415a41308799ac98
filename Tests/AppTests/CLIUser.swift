import BazaarAPI
import Foundation
import TestSupport

/// One person running the built `bazaar` against a server, with their own config folder: every
/// run gets `--server` and `--config-dir`, and JSON output decodes with the wire format's decoder.
struct CLIUser {
    let server: URL
    let configFolder: URL

    init(server: URL) throws {
        self.init(server: server, configFolder: try BazaarTestHarness.makeTemporaryDirectory())
    }

    init(server: URL, configFolder: URL) {
        self.server = server
        self.configFolder = configFolder
    }

    /// Runs `bazaar arguments… --server … --config-dir …`.
    func run(_ arguments: [String], input: String? = nil) async throws -> BazaarCLI.Outcome {
        try await BazaarCLI().run(
            arguments + ["--server", server.absoluteString, "--config-dir", configFolder.path], input: input,
            environment: ["NO_COLOR": "1", "BAZAAR_SERVER": "", "BAZAAR_CONFIG_DIR": ""])
    }

    /// Starts `bazaar chat open CONVERSATION` for this person, reading what the test types.
    func openChat(_ conversationID: String) throws -> BazaarCLI.Running {
        try BazaarCLI().startInteractive(
            ["chat", "open", conversationID, "--server", server.absoluteString, "--config-dir", configFolder.path],
            environment: ["NO_COLOR": "1"])
    }

    /// Runs with `--json` and decodes what it printed.
    func json<T: Decodable>(_ type: T.Type, _ arguments: [String], input: String? = nil) async throws -> (
        T, BazaarCLI.Outcome
    ) {
        let outcome = try await run(arguments + ["--json"], input: input)
        guard outcome.exitCode == 0 else { throw CLIFailure(outcome: outcome) }
        do {
            return (try BazaarJSON.makeDecoder().decode(T.self, from: Data(outcome.stdout.utf8)), outcome)
        } catch {
            // What was printed instead of the JSON, so a failure says what the command did.
            throw CLIFailure(outcome: outcome, reason: "\(error)")
        }
    }

    func removeFolder() {
        try? FileManager.default.removeItem(at: configFolder)
    }

    /// Runs `body` with two people, each with a folder of their own, on a fresh server; their
    /// folders are removed after.
    static func pair(_ body: (CLIUser, CLIUser, BazaarTestClient) async throws -> Void) async throws {
        try await BazaarTestHarness.withServer { server in
            let first = try CLIUser(server: server.baseURL)
            let second = try CLIUser(server: server.baseURL)
            defer {
                first.removeFolder()
                second.removeFolder()
            }
            try await body(first, second, server)
        }
    }
}

/// A run that was expected to succeed and did not.
struct CLIFailure: Error, CustomStringConvertible {
    let outcome: BazaarCLI.Outcome
    /// Why the run counts as failed, when its exit status alone does not say.
    var reason: String?

    var description: String {
        "exit \(outcome.exitCode)\(reason.map { " (\($0))" } ?? ""): stderr \(outcome.stderr.debugDescription), stdout \(outcome.stdout.debugDescription)"
    }
}

extension BazaarCLI.Outcome {
    /// The lines written to standard error.
    var errorLines: [Substring] { stderr.split(separator: "\n") }
}

/// A seller and a buyer, each with their own config folder, signed up through the CLI, and the
/// conversation the buyer started with the seller (about a product of the seller's, when asked).
struct CLIChat {
    let seller: CLIUser
    let buyer: CLIUser
    /// The seller's account.
    let sellerAccount: User
    let conversation: Conversation
    /// What the conversation is about, when it is about a product.
    var product: Product?

    /// Runs `body` with a fresh seller and buyer on a fresh server; their folders are removed after.
    /// With `selling` (a title and a price), the seller lists that product first and the
    /// conversation is about it.
    static func with(
        selling: (title: String, price: String)? = nil, _ body: (CLIChat, BazaarTestClient) async throws -> Void
    ) async throws {
        try await CLIUser.pair { seller, buyer, server in
            let (sam, _) = try await seller.json(
                User.self, ["register", "sam", "--name", "Sam Seller"], input: "sam-password\n")
            _ = try await buyer.json(User.self, ["register", "bea", "--name", "Bea Buyer"], input: "bea-password\n")
            var product: Product?
            var start = ["chat", "start", sam.id]
            if let selling {
                product = try await seller.json(
                    Product.self, ["product", "sell", "--title", selling.title, "--price", selling.price]
                ).0
                start += ["--product", product?.id ?? ""]
            }
            let (conversation, _) = try await buyer.json(Conversation.self, start)
            try await body(
                CLIChat(
                    seller: seller, buyer: buyer, sellerAccount: sam, conversation: conversation, product: product),
                server)
        }
    }
}
