import Foundation
import Synchronization

/// Reads a file in fixed-size chunks as an async stream, so large uploads never sit whole in memory.
enum FileChunks {
    /// The chunk size used for files.
    static let chunkSize = 64 * 1024

    /// A stream of the file's bytes; it ends with an error if the file cannot be read.
    static func stream(of url: URL) -> AsyncThrowingStream<Data, any Error> {
        let reader = Reader(url: url)
        return AsyncThrowingStream(unfolding: { try reader.next() })
    }

    /// The size of the file at `url` in bytes.
    static func size(of url: URL) throws -> Int64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        guard let size = attributes[.size] as? NSNumber else {
            throw CocoaError(.fileReadUnknown)
        }
        return size.int64Value
    }

    /// Holds the open file; the mutex makes it safe to share with the stream's closures.
    final class Reader: Sendable {
        private enum State {
            case unopened
            case open(FileHandle)
            case closed
        }

        private let url: URL
        private let state = Mutex(State.unopened)

        init(url: URL) {
            self.url = url
        }

        func next() throws -> Data? {
            try state.withLock { state in
                let handle: FileHandle
                switch state {
                case .closed:
                    return nil
                case .open(let open):
                    handle = open
                case .unopened:
                    handle = try FileHandle(forReadingFrom: url)
                    state = .open(handle)
                }
                guard let chunk = try handle.read(upToCount: FileChunks.chunkSize), !chunk.isEmpty else {
                    try? handle.close()
                    state = .closed
                    return nil
                }
                return chunk
            }
        }

        deinit {
            close()
        }

        func close() {
            state.withLock { state in
                if case .open(let handle) = state { try? handle.close() }
                state = .closed
            }
        }
    }
}
