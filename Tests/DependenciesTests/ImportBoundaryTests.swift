import Foundation
import TestSupport
import Testing

@Suite("Module import boundaries")
struct ImportBoundaryTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    static let checker = ImportBoundaryChecker(
        features: ["Profile", "Products", "Chat", "Notifications"],
        allowedForFeatures: ["Dependencies", "Networking", "Session", "BazaarAPI"],
        compositionRoots: ["BazaarApp"])

    @Test("no feature imports another feature or anything above its layer; only the app imports features")
    func packageRespectsBoundaries() throws {
        let violations = try Self.checker.violations(in: Self.sources)
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    }

    @Test("the check catches a feature importing another feature, a server import, and a stray feature import")
    func checkerCatchesViolations() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("boundaries-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ target: String, _ source: String) throws {
            let folder = root.appendingPathComponent(target)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try source.write(to: folder.appendingPathComponent("File.swift"), atomically: true, encoding: .utf8)
        }
        try write("Profile", "import Foundation\n@testable import Products\nimport Dependencies\n")
        try write("Products", "import Dependencies\npublic import BazaarServer\n")
        try write("Session", "import Profile\n")
        try write("BazaarApp", "import Profile\nimport Products\n")
        for empty in ["Dependencies", "BazaarServer"] { try write(empty, "import Foundation\n") }
        let violations = try Self.checker.violations(in: root)
        #expect(
            violations.map(\.description) == [
                "Products/File.swift imports BazaarServer: a feature imports only BazaarAPI, Dependencies, Networking, Session",
                "Profile/File.swift imports Products: a feature never imports another feature",
                "Session/File.swift imports Profile: only BazaarApp may import a concrete feature module",
            ])
    }
}
