import BazaarAPI
import Foundation
import Networking
import NetworkingAsyncHTTPClient
import Session

/// A few lines of an app built on the kit: registers a user, lists a product as that user, reads
/// the public list back and shows who is signed in, against the server named on the command line.
///
///     swift run KitAdopter http://127.0.0.1:8080
@main
enum KitAdopter {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        guard let text = arguments.first, let server = URL(string: text), server.host != nil else {
            FileHandle.standardError.write(Data("usage: KitAdopter SERVER_URL\n".utf8))
            exit(64)
        }
        do {
            try await run(against: server)
        } catch {
            FileHandle.standardError.write(Data("KitAdopter: \(error)\n".utf8))
            exit(69)
        }
    }

    static func run(against server: URL) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kit-adopter-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let performer = NetworkRequestPerformer(transport: AsyncHTTPClientTransport())
        let starter = SessionStarter(
            client: .bazaar(baseURL: server, performer: performer),
            tokenStore: FileTokenStore(url: folder.appendingPathComponent("tokens.json")))
        let username = "adopter\(UInt32.random(in: 0...UInt32.max))"
        let session = try await starter.register(
            username: username, password: "a long password", displayName: "Kit Adopter")
        let listed = try await session.network.request(
            BazaarEndpoints.createProduct(
                CreateProductRequest(
                    title: "Lamp from an adopter", description: "Listed through the kit alone.", priceCents: 1500,
                    currency: "EUR")))
        let page = try await session.publicNetwork.request(BazaarEndpoints.products(query: "adopter", limit: 5))
        let me = try await session.network.request(BazaarEndpoints.me)
        print("signed in as \(me.username)")
        print("listed \(listed.title) (\(listed.id))")
        print("search for adopter: \(page.items.map(\.title).joined(separator: ", "))")
        guard page.items.contains(where: { $0.id == listed.id }) else {
            throw AdopterError.notFound(listed.id)
        }
        _ = await session.logout()
    }

    enum AdopterError: Error, CustomStringConvertible {
        case notFound(String)
        var description: String {
            switch self {
            case .notFound(let id): "the product \(id) just listed is not in the search"
            }
        }
    }
}
