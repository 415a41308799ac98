import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a child process's pipes with POSIX calls that retry a read a signal interrupted.
///
/// Foundation's `FileHandle.readDataToEndOfFile()` and `availableData` on Linux call their reader
/// with `try!`, so a read that returns `EINTR` (a `SIGCHLD` arriving while a test waits on a pipe)
/// traps the whole test process: `FileHandle.swift:699: Fatal error: 'try!' expression unexpectedly
/// raised an error … Interrupted system call`. That failed a CI run. These functions treat `EINTR`
/// as "read again" and every other error as the end of the stream.
public enum PipeReading {
    /// Everything each handle yields until its writer closes it, read together with `poll(2)` so a
    /// child that fills one pipe while the other is being read cannot deadlock against the reader.
    /// The results are in the order of `handles`.
    public static func readToEnd(_ handles: [FileHandle]) -> [Data] {
        var results = Array(repeating: Data(), count: handles.count)
        var open = Array(handles.indices)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: handles[$0].fileDescriptor, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            var closed: Set<Int> = []
            for (slot, index) in open.enumerated() where fds[slot].revents != 0 {
                let count = readRetrying(handles[index].fileDescriptor, into: &buffer)
                if count > 0 {
                    results[index].append(contentsOf: buffer[0..<count])
                } else {
                    closed.insert(index)
                }
            }
            open.removeAll { closed.contains($0) }
        }
        return results
    }

    /// Everything `handle` yields until its writer closes it.
    public static func readToEnd(_ handle: FileHandle) -> Data {
        readToEnd([handle])[0]
    }

    /// What one read returns: at least one byte, or empty at the end of the stream (or on an error
    /// other than `EINTR`). Blocks until the writer writes or closes.
    public static func readAvailable(_ handle: FileHandle) -> Data {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = readRetrying(handle.fileDescriptor, into: &buffer)
        return count > 0 ? Data(buffer[0..<count]) : Data()
    }

    /// `read(2)` again while a signal interrupts it; 0 at the end of the stream, -1 on another error.
    private static func readRetrying(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }
}
