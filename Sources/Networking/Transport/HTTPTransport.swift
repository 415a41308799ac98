import Foundation
import HTTPTypes

/// Sends one request and returns the whole response: the seam between the kit and an HTTP stack.
///
/// Implementations: ``URLSessionTransport`` (the default, here in `Networking`) and
/// `AsyncHTTPClientTransport` (on SwiftNIO, in the `NetworkingAsyncHTTPClient` product: the one to
/// choose on Linux).
/// A transport maps its own failures to ``NetworkError`` (`noConnection`, `timedOut`, `cancelled`,
/// `responseTooLarge`, `transport`); cancelling the calling task cancels the request.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    func send(_ request: TransportRequest, options: TransferOptions) async throws(NetworkError) -> TransportResponse

    /// Sends `request` and hands the response body to `body` as it arrives, if `body` accepts
    /// the head; returns the head. `options.maxResponseBytes` does not apply: a download's size
    /// is the caller's to judge, its memory is not (see ``NetworkRequestPerformer/download(_:to:keepingPartialFile:progress:)``).
    ///
    /// The default collects the whole answer with ``send(_:options:)`` and hands it over in one
    /// piece; `AsyncHTTPClientTransport` streams it, so memory stays flat however large it is.
    func download(_ request: TransportRequest, options: TransferOptions, into body: DownloadBody)
        async throws(NetworkError) -> HTTPResponse
}

extension HTTPTransport {
    /// Collects the answer with ``send(_:options:)``, then hands the body over whole.
    public func download(_ request: TransportRequest, options: TransferOptions, into body: DownloadBody)
        async throws(NetworkError) -> HTTPResponse
    {
        var options = options
        options.maxResponseBytes = .max
        let response = try await send(request, options: options)
        guard body.accepts(response.head) else { return response.head }
        try body.write(response.body)
        return response.head
    }
}

/// Where a download's body goes: told the head first, it says whether it wants the body, then
/// takes the body chunk by chunk.
public struct DownloadBody: Sendable {
    /// Whether the body of an answer with this head is wanted (when not, it is not read).
    public let accepts: @Sendable (HTTPResponse) -> Bool
    /// Takes the next chunk; an error stops the download.
    public let take: @Sendable (Data) throws -> Void

    /// Makes a destination from its two steps.
    public init(accepts: @escaping @Sendable (HTTPResponse) -> Bool, take: @escaping @Sendable (Data) throws -> Void) {
        self.accepts = accepts
        self.take = take
    }

    /// Hands `chunk` on, as the kit's error.
    public func write(_ chunk: Data) throws(NetworkError) {
        do {
            try take(chunk)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw .transport(reason: "the download could not be written: \(error)")
        }
    }
}

/// Per-request settings a transport honours.
public struct TransferOptions: Sendable {
    /// The most time this one exchange may take: connecting, sending, and the whole answer.
    public var timeout: Duration
    /// The largest response body accepted.
    public var maxResponseBytes: Int
    /// Called as bytes go out and come in; `nil` when nobody is watching.
    public var progress: ProgressHandler?

    /// How many times its compressed size a response body may inflate to, on every transport (a
    /// body past it is a decompression bomb: ``NetworkError/decompressionFailed(reason:)``).
    public static let decompressionRatioLimit = 100

    /// Makes options.
    public init(timeout: Duration = .seconds(30), maxResponseBytes: Int = 64 << 20, progress: ProgressHandler? = nil) {
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.progress = progress
    }
}

/// Receives progress reports for one request.
public typealias ProgressHandler = @Sendable (TransferProgress) -> Void

/// How far a transfer has come in one direction.
public struct TransferProgress: Sendable, Hashable {
    /// Which way the bytes move.
    public enum Direction: Sendable, Hashable {
        /// The request body going out.
        case upload
        /// The response body coming in.
        case download
    }

    /// Which way the bytes move.
    public var direction: Direction
    /// Bytes moved so far.
    public var completedBytes: Int64
    /// All bytes to move, when known.
    public var totalBytes: Int64?

    /// Makes a report.
    public init(direction: Direction, completedBytes: Int64, totalBytes: Int64?) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// The share done, from 0 to 1, when the total is known.
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}
