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

        /// Makes an outcome.
        public init(response: Data, closedByServer: Bool) {
            self.response = response
            self.closedByServer = closedByServer
        }

        /// The response as text.
        public var text: String { String(decoding: response, as: UTF8.self) }
    }

    /// Errors of the socket calls.
    public struct SocketError: Error, CustomStringConvertible {
        /// The failing call.
        public let call: String
        /// The `errno` it failed with (0 when not known).
        public let code: Int32

        /// Makes an error for `call`, taking the current `errno`.
        public init(call: String, code: Int32 = errno) {
            self.call = call
            self.code = code
        }

        /// `send failed: Connection reset by peer`.
        public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// Connects to 127.0.0.1:`port`, sends `bytes`, reads until close or `timeoutSeconds` of silence.
    ///
    /// The default silence is long because callers wait for the server to close: a debug server on a
    /// busy two-core machine has been seen to take over 3 s to do it.
    ///
    /// The blocking socket calls run on a Dispatch queue, never on Swift's cooperative pool: on a
    /// two-core machine a blocked pool thread can starve an in-process server of the very thread it
    /// needs to answer.
    public static func exchange(_ bytes: Data, port: Int, timeoutSeconds: Int = 15) async throws -> Exchange {
        try await offPool {
            let connection = try Connection(port: port, timeoutSeconds: timeoutSeconds)
            try connection.send(bytes)
            return connection.receiveAll()
        }
    }

    /// One TCP connection, for exchanges sent in several parts.
    ///
    /// Every call blocks; use it inside ``offPool(_:)``.
    public final class Connection {
        /// The socket.
        private let fd: Int32

        /// Connects to 127.0.0.1:`port`; reads (and writes) give up after `timeoutSeconds` of silence.
        ///
        /// `sourceAddress` binds the client end first, to another loopback address such as
        /// `127.0.0.2` (all of 127/8 is loopback on Linux): a test's way of being a second client.
        /// `receiveBufferSize` shrinks the socket's receive buffer, for a client that reads slowly.
        public init(port: Int, timeoutSeconds: Int = 3, sourceAddress: String? = nil, receiveBufferSize: Int? = nil)
            throws
        {
            #if canImport(Glibc)
                fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard fd >= 0 else { throw SocketError(call: "socket") }
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            #if canImport(Darwin)
                // Writing to a connection the server closed must fail with EPIPE, not kill the process.
                var one: Int32 = 1
                setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            if var size = receiveBufferSize.map(Int32.init) {
                setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            do {
                if let sourceAddress { try Self.call("bind", fd, host: sourceAddress, port: 0) { bind($0, $1, $2) } }
                try Self.call("connect", fd, host: "127.0.0.1", port: port) { connect($0, $1, $2) }
            } catch {
                close(fd)
                throw error
            }
        }

        /// Calls `bind` or `connect` on `fd` with the IPv4 address `host`:`port`.
        private static func call(
            _ name: String, _ fd: Int32, host: String, port: Int,
            _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
        ) throws {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr(host)
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 else { throw SocketError(call: name) }
        }

        deinit { close(fd) }

        /// Sends all the bytes; throws when the server closed the connection or stopped reading
        /// for longer than the timeout.
        public func send(_ bytes: Data) throws {
            #if canImport(Glibc)
                // A peer that closed must fail the call with EPIPE, not kill the process with SIGPIPE.
                let flags = Int32(MSG_NOSIGNAL)
            #else
                let flags: Int32 = 0
            #endif
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes { buffer -> Int in
                    guard let base = buffer.baseAddress else { return 0 }
                    #if canImport(Glibc)
                        return Glibc.send(fd, base + offset, buffer.count - offset, flags)
                    #else
                        return Darwin.send(fd, base + offset, buffer.count - offset, flags)
                    #endif
                }
                guard sent > 0 else { throw SocketError(call: "send") }
                offset += sent
            }
        }

        /// Reads until the server closes the connection or falls silent.
        public func receiveAll() -> Exchange {
            receive(until: { _ in false })
        }

        /// Reads until `isComplete` says the bytes so far are enough, the server closes the
        /// connection, it falls silent for the timeout, or `deadline` passes.
        public func receive(until isComplete: (Data) -> Bool, deadline: ContinuousClock.Instant? = nil) -> Exchange {
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                if let deadline, ContinuousClock.now >= deadline {
                    return Exchange(response: received, closedByServer: false)
                }
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 {
                    received.append(contentsOf: buffer[0..<count])
                    if isComplete(received) { return Exchange(response: received, closedByServer: false) }
                } else {
                    return Exchange(response: received, closedByServer: count == 0 || errno == ECONNRESET)
                }
            }
        }

        /// Whether the server has closed (or reset) the connection, checked without waiting;
        /// any bytes waiting to be read are discarded.
        public func isClosedByServer() -> Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0 { continue }
                if count == 0 { return true }
                return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
            }
        }

        /// Reads (and discards) until the server closes or resets the connection, waiting at most
        /// until `deadline`; whether it did. Unlike ``isClosedByServer()`` it waits for bytes the
        /// server's kernel has not sent yet, so a close queued behind megabytes of unread data is seen.
        public func waitUntilClosedByServer(deadline: ContinuousClock.Instant) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let remaining = deadline - ContinuousClock.now
                guard remaining > .zero else { return false }
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(clamping: Int((remaining / .milliseconds(1)).rounded(.up)))
                let ready = poll(&descriptor, 1, milliseconds)
                if ready < 0 && errno != EINTR { return false }
                guard ready > 0 else { continue }
                let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count == 0 { return true }
                if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { return true }
            }
        }

        /// Whether the server has sent something (or closed) that has not been read yet, checked
        /// without waiting: a client streaming a large body uses it to stop once it is answered.
        public func hasBytesToRead() -> Bool {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&descriptor, 1, 0) > 0
        }

        /// Half-closes the connection: the server sees the end of the request stream, and the
        /// answer can still be read.
        public func finishSending() {
            shutdown(fd, Int32(SHUT_WR))
        }
    }
}
