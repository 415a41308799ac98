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

/// Raises the soft limit of open files: each process holds one end of every socket (10 000 sockets
/// need 10 000+ descriptors in the client and as many in the server child, which inherits the
/// raised limit).
enum FileLimit {
    /// Why the limit could not be raised.
    struct Failure: Error, CustomStringConvertible {
        /// In words.
        let description: String
    }

    /// Raises the soft `RLIMIT_NOFILE` to `needed` (at most the hard limit).
    static func raise(toAtLeast needed: rlim_t) throws {
        #if canImport(Glibc)
            var limit = rlimit()
            guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
                throw Failure(description: "getrlimit failed: errno \(errno)")
            }
            guard limit.rlim_cur < needed else { return }
            guard limit.rlim_max >= needed else {
                throw Failure(
                    description:
                        "open-file hard limit \(limit.rlim_max) is below the \(needed) needed; raise it (ulimit -Hn)")
            }
            limit.rlim_cur = needed
            guard setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
                throw Failure(description: "setrlimit failed: errno \(errno)")
            }
        #endif
    }
}
