import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn`, for tests and tools that run `bazaar`,
/// `bazaar-server` or a script.
///
/// Written instead of using Foundation's `Process` because, on this toolchain, `Process.run()`
/// on Linux crashes now and then (SIGSEGV in `memcpy`): it lists `/proc/self/fd` to close the
/// parent's descriptors in the child and copies each `dirent`'s whole 256-byte name, reading past
/// glibc's buffer (swift-corelibs-foundation #5472, fixed after 6.3). It failed about one full
/// test run in ten. Here the child closes every descriptor above 2 with glibc's
/// `posix_spawn_file_actions_addclosefrom_np`, and the pipes are made close-on-exec, so one
/// child never holds another's pipe open.
public final class ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// This process's own stream, shared.
        case inherit
        /// A new pipe; the parent's end is ``standardInput``, ``standardOutput`` or ``standardError``.
        case pipe
        /// A file, created if missing, appended to.
        case appending(toFile: String)
    }

    /// Why a child could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        /// The call that failed and its `errno`.
        public let call: String
        public let code: Int32

        public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// The child's process id.
    public let processIdentifier: pid_t
    /// The parent's end of the child's standard input, when it was ``Stream/pipe``.
    public let standardInput: FileHandle?
    /// The parent's end of the child's standard output, when it was ``Stream/pipe``.
    public let standardOutput: FileHandle?
    /// The parent's end of the child's standard error, when it was ``Stream/pipe``.
    public let standardError: FileHandle?
    /// The wait status once the child has been reaped.
    private let reaped = Mutex<Int32?>(nil)

    /// Starts `executable` with `arguments` (not including the program name) and exactly
    /// `environment`.
    public init(
        executable: String, arguments: [String], environment: [String: String],
        standardInput input: Stream = .null, standardOutput output: Stream = .null, standardError error: Stream = .null
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32?] = [nil, nil, nil]
        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        do {
            for (target, stream) in [(Int32(0), input), (1, output), (2, error)] {
                switch stream {
                case .null:
                    posix_spawn_file_actions_addopen(
                        &actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
                case .inherit:
                    break
                case .appending(let path):
                    posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
                case .pipe:
                    var fds: [Int32] = [-1, -1]
                    // (Swift's Glibc does not declare pipe2; a child spawned between these two
                    // calls still closes these with everything above 2.)
                    guard pipe(&fds) == 0 else { throw SpawnError(call: "pipe", code: errno) }
                    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
                    let (childEnd, parentEnd) = target == 0 ? (fds[0], fds[1]) : (fds[1], fds[0])
                    childEnds.append(childEnd)
                    parentEnds[Int(target)] = parentEnd
                    // dup2 clears close-on-exec on the copy the child keeps.
                    posix_spawn_file_actions_adddup2(&actions, childEnd, target)
                }
            }
            Self.closeEverythingAbove2(&actions)
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                for pointer in argv { free(pointer) }
                for pointer in envp { free(pointer) }
            }
            var pid: pid_t = 0
            let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
            guard result == 0 else { throw SpawnError(call: "posix_spawn \(executable)", code: result) }
            processIdentifier = pid
        } catch {
            for fd in parentEnds.compactMap({ $0 }) { close(fd) }
            throw error
        }
        standardInput = parentEnds[0].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        standardOutput = parentEnds[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        standardError = parentEnds[2].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    /// Starts `executable` with this process's environment changed by `environment`.
    public convenience init(
        executable: String, arguments: [String], addingToEnvironment environment: [String: String] = [:],
        standardInput input: Stream = .null, standardOutput output: Stream = .null, standardError error: Stream = .null
    ) throws {
        try self.init(
            executable: executable, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            standardInput: input, standardOutput: output, standardError: error)
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool {
        reap() == nil
    }

    /// Sends `signal` to the child (nothing when it has been reaped already).
    public func send(_ signal: Int32) {
        reaped.withLock { status in
            if status == nil { _ = kill(processIdentifier, signal) }
        }
    }

    /// Sends SIGTERM.
    public func terminate() {
        send(SIGTERM)
    }

    /// Waits for the child to exit; its exit code, or 128 plus the signal that ended it.
    @discardableResult
    public func waitUntilExit() -> Int32 {
        while true {
            if let status = reap() { return Self.exitCode(of: status) }
            usleep(5_000)
        }
    }

    /// The exit code (or 128 plus the signal), once the child has exited; `nil` while it runs.
    public var terminationStatus: Int32? {
        reap().map(Self.exitCode(of:))
    }

    /// The wait status, reaping the child if it has exited (under the lock, so two threads never
    /// both reap it); `nil` while it runs.
    private func reap() -> Int32? {
        reaped.withLock { reaped in
            if let reaped { return reaped }
            var status: Int32 = 0
            while true {
                let result = waitpid(processIdentifier, &status, WNOHANG)
                if result == -1 && errno == EINTR { continue }
                guard result == processIdentifier else { return nil }
                reaped = status
                return status
            }
        }
    }

    private static func exitCode(of status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Adds "close every descriptor from 3 up" to `actions` (glibc 2.34+, looked up at run time
    /// because Swift's Glibc module does not declare it); without it the child keeps only what
    /// is not close-on-exec.
    private static func closeEverythingAbove2(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard closeFromAddress != 0, let symbol = UnsafeRawPointer(bitPattern: closeFromAddress) else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }

    /// The address of `posix_spawn_file_actions_addclosefrom_np`, or 0 when this libc lacks it
    /// (kept as a number: a pointer is not `Sendable`, and the address never changes).
    private static let closeFromAddress: UInt = {
        #if canImport(Glibc)
            return UInt(
                bitPattern: dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np"))
        #else
            return 0
        #endif
    }()
}
