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

/// Why the run could not go on.
struct FanoutFailure: Error, CustomStringConvertible {
    /// In words.
    let description: String
}
