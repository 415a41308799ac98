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

/// CPU time of a process, from `/proc/<pid>/stat` (Linux).
enum CPUTime {
    /// User plus system seconds used so far by `process` (this process when `nil`); `nil` where
    /// `/proc` is not readable.
    static func seconds(process: Int32?) -> Double? {
        let path = "/proc/" + (process.map(String.init) ?? "self") + "/stat"
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // Fields after the command name (which is in parentheses and may hold spaces): state is
        // field 3, utime 14, stime 15.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        #if canImport(Glibc)
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        #else
            let ticks = 100.0
        #endif
        return (user + system) / ticks
    }
}
