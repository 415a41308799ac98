import Foundation
import Networking
import Testing

// The example from README.md, as written there: a user of the kit defines an endpoint and calls it.

struct Product: Decodable, Sendable {
    var id: String
    var title: String
    var priceCents: Int
}

struct GetProduct: APIRequest {
    typealias Resource = Product
    var id: String
    var path: String { "/products/\(id)" }
}

@Suite("README example")
struct ReadmeExampleTests {
    @Test("a new endpoint is defined and called in a few lines")
    func readmeExample() async throws {
        try await KitFixture.with { fixture in
            let serverURL = fixture.baseURL
            // README begins
            let client = APIClient(baseURL: serverURL)
            let product = try await client.send(GetProduct(id: "p1"))
            print("\(product.title): \(product.priceCents) cents")
            // README ends
            #expect(product.id == "p1" && product.title == "Lamp" && product.priceCents == 1500)
        }
    }

    @Test("README and the example adopter ask for the version the kit says it is")
    func adoptionLinesNameTheKitsVersion() throws {
        let root = ScopeSeparationTests.packageRoot
        for file in ["README.md", "Examples/KitAdopter/Package.swift"] {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n").filter { $0.contains(".package(url:") && $0.contains("/bazaar\"") }
            #expect(!lines.isEmpty, "\(file) has the adoption line")
            for line in lines {
                #expect(line.contains("from: \"\(KitVersion.version)\""), "\(file): \(line)")
            }
        }
    }
}
