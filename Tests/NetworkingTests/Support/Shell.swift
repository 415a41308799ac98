import Foundation
import TestSupport

/// Runs `line` with `/bin/sh -c` and returns its standard output (a real `curl`, a real `openssl`).
func shell(_ line: String) async throws -> Data {
    try await offPool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", line]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
}
