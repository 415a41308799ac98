import Foundation
import TestSupport
import Testing

@Suite("Module import boundaries")
struct ImportBoundaryTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// The concrete modules (the features, and the live-events service they share through
    /// `LiveEventSource`) may be imported by the app's composition root alone: its one file.
    static let checker = ImportBoundaryChecker(
        features: [
            "Profile", "Products", "Chat", "Notifications", "Favourites", "Offers", "Reviews", "Account", "Moderation",
            "LiveEvents",
        ],
        allowedForFeatures: ["Dependencies", "Networking", "Session", "BazaarAPI"],
        compositionRoots: ["BazaarApp/CompositionRoot.swift"])

    @Test(
        "no feature imports another feature or anything above its layer; only the app's composition root imports features"
    )
    func packageRespectsBoundaries() throws {
        let violations = try Self.checker.violations(in: Self.sources)
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    }

    @Test(
        "the check catches a feature importing another feature, a server import, and a feature imported outside the composition root's file"
    )
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
        try write("BazaarApp/Renderers", "import Chat\n")
        for empty in ["Dependencies", "BazaarServer", "Chat"] { try write(empty, "import Foundation\n") }
        let checker = ImportBoundaryChecker(
            features: Self.checker.features, allowedForFeatures: Self.checker.allowedForFeatures,
            compositionRoots: ["BazaarApp/File.swift"])
        let violations = try checker.violations(in: root)
        #expect(
            violations.map(\.description) == [
                "BazaarApp/Renderers/File.swift imports Chat: only BazaarApp/File.swift may import a concrete feature module",
                "Products/File.swift imports BazaarServer: a feature imports only BazaarAPI, Dependencies, Networking, Session",
                "Profile/File.swift imports Products: a feature never imports another feature",
                "Session/File.swift imports Profile: only BazaarApp/File.swift may import a concrete feature module",
            ])
    }
}
