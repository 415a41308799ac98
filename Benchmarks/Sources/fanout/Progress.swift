import ArgumentParser
import AsyncHTTPClient
import BazaarAPI
import BenchSupport
import Foundation
import Logging
import NIOCore
import Synchronization
import WSClient

#if canImport(Glibc)
    import Glibc
#endif

/// Progress lines on standard error (standard output carries only the summary).
struct Progress: Sendable {
    /// Writes one line.
    func say(_ line: String) {
        FileHandle.standardError.write(Data("fanout: \(line)\n".utf8))
    }
}
