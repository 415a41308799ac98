import Foundation

/// Type-checks a Swift snippet against this package's built modules with `swiftc -typecheck`, so a
/// test can prove that some misuse of an API does not compile.
public enum SwiftTypeChecker {
    /// What the compiler said.
    public struct Outcome: Sendable {
        /// `swiftc`'s exit status: 0 when the snippet type-checks.
        public var exitCode: Int32
        /// Everything `swiftc` printed.
        public var output: String
    }

    /// Errors the checker itself can raise.
    public enum CheckerError: Error, CustomStringConvertible {
        /// The built modules were not found next to the test bundle or in `.build/debug`.
        case modulesNotFound(searched: [String])

        public var description: String {
            switch self {
            case .modulesNotFound(let searched):
                "built modules not found; looked in \(searched.joined(separator: ", "))"
            }
        }
    }

    /// Type-checks `source` with the package's modules importable.
    ///
    /// - Parameter packageRoot: the package folder (found from the caller's file by default).
    public static func check(_ source: String, packageRoot: URL) async throws -> Outcome {
        try await offPool { try checkBlocking(source, packageRoot: packageRoot) }
    }

    private static func checkBlocking(_ source: String, packageRoot: URL) throws -> Outcome {
        let products = try productsFolder(packageRoot: packageRoot)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Snippet.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)

        var arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-I", products.appendingPathComponent("Modules").path,
        ]
        for map in moduleMaps(in: [products, packageRoot.appendingPathComponent(".build/checkouts")]) {
            arguments += ["-Xcc", "-fmodule-map-file=\(map)"]
        }
        arguments.append(file.path)

        let process = try ChildProcess(
            executable: "/usr/bin/env", arguments: arguments, addingToEnvironment: [:], standardOutput: .pipe,
            standardError: .pipe)
        let both = PipeReading.readToEnd([process.standardOutput, process.standardError].compactMap { $0 })
        let output = both[0] + both[1]
        let status = process.waitUntilExit()
        return Outcome(exitCode: status, output: String(decoding: output, as: UTF8.self))
    }

    /// The build products folder holding `Modules/`: beside the running test bundle, else `.build/debug`.
    private static func productsFolder(packageRoot: URL) throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            packageRoot.appendingPathComponent(".build/debug", isDirectory: true),
        ]
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Modules").path) {
            return candidate.resolvingSymlinksInPath()
        }
        throw CheckerError.modulesNotFound(searched: candidates.map(\.path))
    }

    /// Every C module map the built Swift modules may need (generated ones and those in checkouts).
    private static func moduleMaps(in folders: [URL]) -> [String] {
        var maps: [String] = []
        for folder in folders {
            guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let url as URL in enumerator where url.lastPathComponent == "module.modulemap" {
                let path = url.path
                if path.contains("/Tests/") || path.contains("/Benchmarks/") || path.contains("-tool.build/") {
                    continue
                }
                // Maps generated for Swift modules (their `-Swift.h` headers) are not needed: those
                // modules load from `Modules/`. Only C modules' maps are.
                if let text = try? String(contentsOf: url, encoding: .utf8), text.contains("-Swift.h") { continue }
                maps.append(path)
            }
        }
        return maps
    }
}
