import Foundation

/// The body of an outgoing request: bytes in memory, or a stream that can be started again.
///
/// A stream is described by a factory rather than a live sequence, so a retried request sends the
/// whole body again from the start (a multipart upload streamed from disk re-opens its files).
public struct HTTPBody: Sendable {
    /// A source of body chunks; each call starts a new pass over the body.
    public typealias ChunkSource = @Sendable () -> AsyncThrowingStream<Data, any Error>

    /// What the body holds; transports of the kit's own read it.
    package enum Storage: Sendable {
        case bytes(Data)
        case stream(ChunkSource)
    }

    package let storage: Storage

    /// The length in bytes, when known in advance (it becomes `Content-Length`).
    public let length: Int64?

    /// A body held in memory.
    public static func bytes(_ data: Data) -> HTTPBody {
        HTTPBody(storage: .bytes(data), length: Int64(data.count))
    }

    /// A body produced in chunks; `length` is the total when it is known.
    public static func stream(length: Int64?, chunks: @escaping ChunkSource) -> HTTPBody {
        HTTPBody(storage: .stream(chunks), length: length)
    }

    /// The whole body as one `Data`, reading a stream to its end.
    ///
    /// - Throws: ``NetworkError/requestBuildFailed(_:)`` when the stream fails.
    public func collect() async throws -> Data {
        switch storage {
        case .bytes(let data):
            return data
        case .stream(let source):
            var data = Data()
            if let length { data.reserveCapacity(Int(clamping: length)) }
            for try await chunk in source() {
                data.append(chunk)
            }
            return data
        }
    }

    /// The body as a sequence of chunks no larger than `chunkSize` (bytes are split, streams pass through).
    public func chunks(maximumSize chunkSize: Int = 64 * 1024) -> AsyncThrowingStream<Data, any Error> {
        switch storage {
        case .stream(let source):
            return source()
        case .bytes(let data):
            return AsyncThrowingStream { continuation in
                var offset = data.startIndex
                while offset < data.endIndex {
                    let end = data.index(offset, offsetBy: chunkSize, limitedBy: data.endIndex) ?? data.endIndex
                    continuation.yield(data[offset..<end])
                    offset = end
                }
                continuation.finish()
            }
        }
    }
}
