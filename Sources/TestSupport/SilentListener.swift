import Foundation
import Glibc
import ProcessSupport

#if canImport(Glibc)
#endif

/// A loopback port that takes connections and never answers them: the kernel completes each TCP
/// handshake into the listen backlog and nothing ever accepts, reads or writes. For tests of a
/// client facing a server (or a network) that stalls after connecting.
public final class SilentListener: Sendable {
    /// The port it listens on.
    public let port: Int
    private let descriptor: Int32

    /// Listens on `127.0.0.1` at a free port; throws ``RawHTTP/SocketError`` when the system refuses.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTP.SocketError(call: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let error = RawHTTP.SocketError(call: "bind/listen")
            close(fd)
            throw error
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let error = RawHTTP.SocketError(call: "getsockname")
            close(fd)
            throw error
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: actual.sin_port))
    }

    /// `http://127.0.0.1:<port>`.
    public var url: URL {
        URL(string: "http://127.0.0.1:\(port)")!  // Built from an integer port: always a URL.
    }

    deinit {
        close(descriptor)
    }
}
