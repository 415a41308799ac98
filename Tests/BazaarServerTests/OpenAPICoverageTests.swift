import BazaarAPI
import BazaarServer
import BazaarServerRuntime
import Foundation
import TestSupport
import Testing
import Yams

/// The `openapi.yaml` at the repository root, parsed.
struct OpenAPIDocument {
    let root: [String: Any]

    static func load() throws -> OpenAPIDocument {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi.yaml")
        let text = try String(contentsOf: url, encoding: .utf8)
        let root = try #require(try Yams.load(yaml: text) as? [String: Any])
        return OpenAPIDocument(root: root)
    }

    /// `METHOD /path` for every operation.
    var operations: Set<String> {
        let paths = root["paths"] as? [String: Any] ?? [:]
        var result = Set<String>()
        for (path, item) in paths {
            for method in (item as? [String: Any] ?? [:]).keys where Self.methods.contains(method) {
                result.insert("\(method.uppercased()) \(path)")
            }
        }
        return result
    }

    func operation(_ route: APIRoute) -> [String: Any]? {
        let paths = root["paths"] as? [String: Any]
        return (paths?[route.template] as? [String: Any])?[route.method.lowercased()] as? [String: Any]
    }

    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
}

@Suite("openapi.yaml matches the router")
struct OpenAPICoverageTests {
    @Test func everyRoutedPathIsInTheSpecAndEveryPathInTheSpecIsRouted() async throws {
        let spec = try OpenAPIDocument.load()
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await BazaarServer(configuration: BazaarTestHarness.configuration(directory: directory))
        let routed = Set(server.routeTable())
        #expect(routed.count == server.routeTable().count, "a route is registered twice")
        #expect(routed.subtracting(spec.operations).sorted() == [], "routed but not in openapi.yaml")
        #expect(spec.operations.subtracting(routed).sorted() == [], "in openapi.yaml but not routed")
    }

    @Test func theSharedRouteListMatchesTheSpec() throws {
        let spec = try OpenAPIDocument.load()
        #expect(Set(APIRoutes.all.map(\.description)) == spec.operations)
    }

    @Test func authenticatedRoutesDeclareBearerSecurityAndPublicOnesDoNot() throws {
        let spec = try OpenAPIDocument.load()
        for route in APIRoutes.all {
            let operation = try #require(spec.operation(route), "\(route) missing")
            let security = operation["security"] as? [[String: Any]] ?? []
            let usesBearer = security.contains { $0["bearerAuth"] != nil }
            #expect(usesBearer == route.requiresAuth, "\(route)")
            if route.requiresAuth {
                let responses = operation["responses"] as? [String: Any] ?? [:]
                #expect(responses["401"] != nil, "\(route) does not document 401")
            }
        }
    }

    @Test func everyOperationWithABodyDocumentsTheBodyErrors() throws {
        let spec = try OpenAPIDocument.load()
        for route in APIRoutes.all {
            let operation = try #require(spec.operation(route))
            guard let requestBody = operation["requestBody"] as? [String: Any] else { continue }
            let responses = operation["responses"] as? [String: Any] ?? [:]
            let isJSON = (requestBody["content"] as? [String: Any])?["application/json"] != nil
            let expected = isJSON ? ["400", "413", "415"] : ["413", "415"]
            for status in expected {
                #expect(responses[status] != nil, "\(route) does not document \(status)")
            }
        }
    }
}
