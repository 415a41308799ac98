import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sends raw bytes over TCP and returns everything the server answers before it closes the
/// connection or falls silent, for requests no HTTP client library would send.
public enum RawHTTP {
    /// The outcome of one exchange.
    public struct Exchange: Sendable {
        /// Everything received.
        public let response: Data
        /// Whether the server closed the connection (rather than going silent until the timeout).
        public let closedByServer: Bool

        /// The response as text.
        public var text: String { String(decoding: response, as: UTF8.self) }
    }

    /// Errors of the socket calls.
    public struct SocketError: Error {
        /// The failing call.
        public let call: String
    }

    /// Connects to 127.0.0.1:`port`, sends `bytes`, reads until close or `timeoutSeconds` of silence.
    ///
    /// The blocking socket calls run on a Dispatch queue, never on Swift's cooperative pool: on a
    /// two-core machine a blocked pool thread can starve an in-process server of the very thread it
    /// needs to answer.
    public static func exchange(_ bytes: Data, port: Int, timeoutSeconds: Int = 3) async throws -> Exchange {
        try await offPool {
            let connection = try Connection(port: port, timeoutSeconds: timeoutSeconds)
            try connection.send(bytes)
            return connection.receiveAll()
        }
    }

    /// One TCP connection, for exchanges sent in several parts.
    public final class Connection {
        private let fd: Int32

        /// Connects to 127.0.0.1:`port`; reads give up after `timeoutSeconds` of silence.
        public init(port: Int, timeoutSeconds: Int = 3) throws {
            #if canImport(Glibc)
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard fd >= 0 else { throw SocketError(call: "socket") }
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                close(fd)
                throw SocketError(call: "connect")
            }
        }

        deinit { close(fd) }

        /// Sends all the bytes.
        public func send(_ bytes: Data) throws {
            #if canImport(Glibc)
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, bytes.count, 0) }
            #else
            let sent = bytes.withUnsafeBytes { Darwin.send(fd, $0.baseAddress, bytes.count, 0) }
            #endif
            guard sent == bytes.count else { throw SocketError(call: "send") }
        }

        /// Reads until the server closes the connection or falls silent.
        public func receiveAll() -> Exchange {
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 {
                    received.append(contentsOf: buffer[0..<count])
                } else {
                    return Exchange(response: received, closedByServer: count == 0)
                }
            }
        }
    }
}
