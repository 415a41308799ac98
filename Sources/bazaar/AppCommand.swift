import ArgumentParser
import Foundation

/// Runs a command body, turning an ``AppError`` into one line on stderr and its exit code.
enum AppCommand {
    static func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as AppError {
            FileHandle.standardError.write(Data("bazaar: \(error.description)\n".utf8))
            throw error.exitCode
        }
    }
}
