import Foundation

/// Checks the module layering of seed 002 by reading `import` lines: a feature module imports only
/// the layers below it, never another feature, and only composition roots import features.
public struct ImportBoundaryChecker: Sendable {
    /// One import that breaks a rule.
    public struct Violation: Sendable, Equatable, CustomStringConvertible {
        /// The file, relative to the sources folder.
        public var file: String
        /// The module imported.
        public var imported: String
        /// The rule broken.
        public var rule: String

        /// `file imports X: rule`.
        public var description: String { "\(file) imports \(imported): \(rule)" }
    }

    /// The feature modules (targets under the sources folder).
    public var features: Set<String>
    /// What a feature may import from this package.
    public var allowedForFeatures: Set<String>
    /// What may import features: a target's name (`bazaar-demo`), or one file of a target as
    /// `Target/Path.swift` (`BazaarApp/CompositionRoot.swift`), so the rest of that target may not.
    public var compositionRoots: Set<String>

    /// Makes a checker.
    public init(features: Set<String>, allowedForFeatures: Set<String>, compositionRoots: Set<String>) {
        self.features = features
        self.allowedForFeatures = allowedForFeatures
        self.compositionRoots = compositionRoots
    }

    /// Every violation under `sourcesFolder` (one folder per target), in file order.
    public func violations(in sourcesFolder: URL) throws -> [Violation] {
        let targets = try FileManager.default.contentsOfDirectory(atPath: sourcesFolder.path).sorted()
        var found: [Violation] = []
        for target in targets {
            let folder = sourcesFolder.appendingPathComponent(target)
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for imported in Self.imports(in: text) {
                    if let rule = rule(broken: target, file: file, importing: imported, packageTargets: Set(targets)) {
                        found.append(Violation(file: "\(target)/\(file)", imported: imported, rule: rule))
                    }
                }
            }
        }
        return found
    }

    private func rule(broken target: String, file: String, importing imported: String, packageTargets: Set<String>)
        -> String?
    {
        guard packageTargets.contains(imported), imported != target else { return nil }
        if features.contains(target), features.contains(imported) {
            return "a feature never imports another feature"
        }
        if features.contains(target), !allowedForFeatures.contains(imported) {
            return "a feature imports only \(allowedForFeatures.sorted().joined(separator: ", "))"
        }
        if features.contains(imported), !compositionRoots.contains(target),
            !compositionRoots.contains("\(target)/\(file)")
        {
            return "only \(compositionRoots.sorted().joined(separator: ", ")) may import a concrete feature module"
        }
        return nil
    }

    /// The modules named by `import` lines (with any `@testable`, access level or kind dropped).
    static func imports(in source: String) -> [String] {
        source.split(separator: "\n").compactMap { line in
            var words = line.split(separator: " ").map(String.init)
            while let first = words.first,
                first.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate"].contains(first)
            {
                words.removeFirst()
            }
            guard words.count >= 2, words[0] == "import" else { return nil }
            var module =
                words.count >= 3
                    && ["struct", "class", "enum", "protocol", "func", "var", "typealias"].contains(words[1])
                ? words[2] : words[1]
            if let dot = module.firstIndex(of: ".") { module = String(module[..<dot]) }
            return module
        }
    }
}
