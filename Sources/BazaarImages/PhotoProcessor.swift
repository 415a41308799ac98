import BazaarAPI
import Foundation
import NIOPosix
import Synchronization

/// Runs the ``ImagePipeline`` on threads of its own (one per core, shared by every processor in
/// the process), never on an event loop or Swift's cooperative pool, at most ``capacity`` photos
/// at once: one more is refused at once
/// (``ImageError/busy``, which the server answers 503 with `Retry-After`) rather than queued, so a
/// burst of large uploads neither stalls other requests nor holds a photo's bytes in memory while
/// it waits.
public final class PhotoProcessor: Sendable {
    /// How many photos are processed at once at most (one thread each).
    public let capacity: Int
    private let pipeline: ImagePipeline
    private let pool: NIOThreadPool
    private let inFlight = Mutex(0)

    /// The threads photos are processed on: one per core, started once and kept for the life
    /// of the process (a server, and each test's, share them; what bounds the work is each
    /// processor's ``capacity``).
    private static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: ProcessInfo.processInfo.activeProcessorCount)
        pool.start()
        return pool
    }()

    /// A processor of at most `capacity` photos at once (the machine's cores by default), each
    /// size given at most `decodeTimeLimit` (see ``ImagePipeline/decodeTimeLimit``).
    public init(
        capacity: Int = ProcessInfo.processInfo.activeProcessorCount, decodeTimeLimit: Duration = .seconds(10)
    ) throws(ImageError) {
        self.capacity = max(1, capacity)
        pipeline = try ImagePipeline(decodeTimeLimit: decodeTimeLimit)
        pool = Self.threads
    }

    /// Every size of the photo in `data` (see ``ImagePipeline/sizes(of:)``).
    ///
    /// - Throws: ``ImageError/busy`` at once when ``capacity`` photos are being processed; what
    ///   ``ImagePipeline/sizes(of:)`` throws otherwise.
    public func sizes(of data: Data) async throws -> [PhotoSize: EncodedImage] {
        let admitted = inFlight.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard admitted else { throw ImageError.busy }
        defer { inFlight.withLock { $0 -= 1 } }
        let pipeline = self.pipeline
        return try await pool.runIfActive { () throws(ImageError) -> [PhotoSize: EncodedImage] in
            try pipeline.sizes(of: data)
        }
    }

    /// Photos being processed now.
    public var busyCount: Int { inFlight.withLock { $0 } }
}
