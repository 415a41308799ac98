import Foundation
import Testing

/// ARCHITECTURE.md's target graph is the package's: read from both and compared, so the map
/// cannot drift from `Package.swift`. And the server's layers keep their drivers to themselves.
@Suite("ARCHITECTURE.md and the server's layers")
struct ArchitectureDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("the target graph in ARCHITECTURE.md is the one Package.swift declares")
    func documentedGraphMatchesThePackage() throws {
        let document = try String(contentsOf: Self.root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let documented = try TargetGraph.documented(in: document)
        let declared = TargetGraph.declared(in: manifest)
        #expect(!declared.isEmpty)
        for (target, dependencies) in declared.sorted(by: { $0.key < $1.key }) {
            #expect(documented[target] == dependencies, "\(target): Package.swift has \(dependencies.sorted())")
        }
        #expect(Set(documented.keys) == Set(declared.keys))
    }

    @Test("the graph reader sees a dependency added to the manifest, so the check can fail")
    func graphReaderNoticesAChange() throws {
        let manifest = """
            .target(
                name: "BazaarDomain",
                dependencies: [
                    "BazaarAPI", "BazaarStorage",
                    .product(name: "Crypto", package: "swift-crypto"),
                ],
                swiftSettings: strict
            ),
            .testTarget(
                name: "Ignored",
                dependencies: ["BazaarDomain"]
            ),
            """
        #expect(TargetGraph.declared(in: manifest) == ["BazaarDomain": ["BazaarAPI", "BazaarStorage"]])
        let changed = manifest.replacingOccurrences(
            of: "\"BazaarStorage\",", with: "\"BazaarStorage\", \"BazaarSQLite\",")
        #expect(TargetGraph.declared(in: changed) == ["BazaarDomain": ["BazaarAPI", "BazaarStorage", "BazaarSQLite"]])
    }

    @Test("the server, the rules and the storage interface import no database driver; no engine imports the other")
    func serverLayersKeepTheirDrivers() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let forbidden: [String: Set<String>] = [
            "BazaarServer": ["GRDB", "PostgresNIO", "BazaarSQLite", "BazaarPostgres", "BazaarServerRuntime"],
            "BazaarDomain": ["GRDB", "PostgresNIO", "BazaarSQLite", "BazaarPostgres", "Hummingbird", "BazaarServer"],
            "BazaarStorage": ["GRDB", "PostgresNIO", "BazaarSQLite", "BazaarPostgres", "Hummingbird", "BazaarServer"],
            "BazaarPostgres": ["GRDB", "BazaarSQLite", "BazaarServer"],
            "BazaarSQLite": ["PostgresNIO", "BazaarPostgres", "BazaarServer"],
        ]
        var found: [String] = []
        for (target, banned) in forbidden.sorted(by: { $0.key < $1.key }) {
            let folder = sources.appendingPathComponent(target)
            let files = try #require(FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String])
            for file in files.sorted() where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { continue }
                    let module = String(words[index + 1])
                    if banned.contains(module) { found.append("\(target)/\(file) imports \(module)") }
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}

/// Reads a target graph: local target names and the local targets each depends on.
enum TargetGraph {
    struct Missing: Error {}

    /// The fenced block after `<!-- target-graph` in the document: lines `Target → A, B` (`—` for none).
    static func documented(in document: String) throws -> [String: Set<String>] {
        guard let marker = document.range(of: "<!-- target-graph"),
            let open = document.range(of: "```text\n", range: marker.upperBound..<document.endIndex),
            let close = document.range(of: "```", range: open.upperBound..<document.endIndex)
        else { throw Missing() }
        var graph: [String: Set<String>] = [:]
        for line in document[open.upperBound..<close.lowerBound].split(separator: "\n") {
            let parts = line.components(separatedBy: " → ")
            guard parts.count == 2 else { continue }
            let dependencies = parts[1] == "—" ? [] : parts[1].components(separatedBy: ", ")
            graph[parts[0]] = Set(dependencies)
        }
        return graph
    }

    /// Every `.target` and `.executableTarget` of a manifest with its quoted (local) dependencies;
    /// `.product(...)` dependencies (also through `marketplace(...)`, `asyncHTTPClient(...)` and `metrics(...)`) and
    /// test targets are left out.
    static func declared(in manifest: String) -> [String: Set<String>] {
        var graph: [String: Set<String>] = [:]
        let pattern =
            #/\.(target|executableTarget)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[((?:[^\[\]]|\[[^\]]*\])*)\])?/#
        for match in manifest.matches(of: pattern) {
            let list = String(match.output.3 ?? "")
            // Products, whether named directly or through the manifest's trait-gated helpers.
            let withoutProducts = list.replacing(#/(\.product|marketplace|asyncHTTPClient|metrics)\([^)]*\)/#, with: "")
                .replacing(#/\/\/[^\n]*/#, with: "")
            let names = withoutProducts.matches(of: #/"([^"]+)"/#).map { String($0.output.1) }
            graph[String(match.output.2)] = Set(names)
        }
        return graph
    }
}
