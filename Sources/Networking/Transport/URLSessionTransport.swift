import Foundation
import HTTPTypes
import HTTPTypesFoundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests with `URLSession` (FoundationNetworking on Linux), for apps that prefer it.
///
/// All instances share one session: swift-corelibs-foundation misbehaves with many sessions. Its
/// `URLCache` is switched off because the kit's ``HTTPCache`` does caching properly (corelibs never
/// stores responses to requests with `Authorization` and never revalidates). Streamed bodies are
/// spooled to a temporary file and uploaded from there. It asks for `gzip, deflate`, which libcurl
/// inflates; a body inflating past ``decompressionRatioLimit`` times its given length is refused.
public struct URLSessionTransport: HTTPTransport {
    /// How many times its compressed size (when the server gave it) a body may inflate to; the
    /// size limit applies to the inflated bytes either way.
    public static let decompressionRatioLimit = TransferOptions.decompressionRatioLimit

    private let session: URLSession
    private let delegate: URLSessionTransportDelegate

    /// The process-wide session and its delegate.
    private static let shared: (URLSession, URLSessionTransportDelegate) = {
        let delegate = URLSessionTransportDelegate()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        return (URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil), delegate)
    }()

    /// Makes a transport over the shared session.
    public init() {
        (session, delegate) = Self.shared
    }

    /// Would make a transport that believes only what `trust` says, but cannot yet.
    ///
    /// On Linux, FoundationNetworking verifies certificates inside libcurl and never asks the
    /// session's delegate about server trust, so there is nowhere to check a root or a pin; this
    /// kit does not implement the Security-framework check on Apple platforms either. Rather than
    /// send requests that silently skip the pins, this always throws: use
    /// `AsyncHTTPClientTransport(trust:)` from `NetworkingAsyncHTTPClient`.
    ///
    /// - Throws: ``ServerTrustError/unsupported(reason:)``, always.
    public init(trust: ServerTrust) throws(ServerTrustError) {
        #if canImport(FoundationNetworking)
            throw .unsupported(
                reason:
                    "URLSession on Linux verifies certificates in libcurl and offers no trust hook; "
                    + "use AsyncHTTPClientTransport(trust:)")
        #else
            throw .unsupported(
                reason: "URLSessionTransport does not check pins yet; use AsyncHTTPClientTransport(trust:)")
        #endif
    }

    /// Sends `request`; this one exchange, body included, is bounded by `options.timeout`.
    public func send(_ request: TransportRequest, options: TransferOptions) async throws(NetworkError)
        -> TransportResponse
    {
        guard var urlRequest = URLRequest(httpRequest: request.head) else {
            throw .requestBuildFailed(.invalidPath(request.head.path ?? ""))
        }
        urlRequest.timeoutInterval = Double(options.timeout.components.seconds) + 1
        // libcurl inflates what it asked for; ask for what the other transport asks for.
        if urlRequest.value(forHTTPHeaderField: "Accept-Encoding") == nil {
            urlRequest.setValue("gzip, deflate", forHTTPHeaderField: "Accept-Encoding")
        }
        var spooledFile: URL?
        defer { spooledFile.map { try? FileManager.default.removeItem(at: $0) } }

        let task: URLSessionTask
        switch request.body?.storage {
        case nil:
            task = session.dataTask(with: urlRequest)
        case .bytes(let data):
            task = session.uploadTask(with: urlRequest, from: data)
        case .stream:
            do {
                let file = try await Self.spool(request.body)
                spooledFile = file
                task = session.uploadTask(with: urlRequest, fromFile: file)
            } catch {
                throw .requestBuildFailed(.bodyStreamFailed(reason: "\(error)"))
            }
        }
        return try await delegate.run(task, options: options)
    }

    /// Writes a streamed body to a temporary file so `URLSession` can upload it from disk.
    private static func spool(_ body: HTTPBody?) async throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bazaar-upload-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        if let body {
            for try await chunk in body.chunks() {
                try handle.write(contentsOf: chunk)
            }
        }
        return url
    }
}

/// Routes the shared session's delegate calls to the request that each task belongs to.
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Exchange {
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        var options: TransferOptions
        var response: HTTPURLResponse?
        var body = Data()
        /// The body's size on the wire when it is compressed and its length was given.
        var compressedLength: Int?
        var outcome: NetworkError?
    }

    private let exchanges = Mutex([Int: Exchange]())

    /// Runs `task` to completion, honouring cancellation of the calling task and the timeout.
    func run(_ task: URLSessionTask, options: TransferOptions) async throws(NetworkError) -> TransportResponse {
        let id = task.taskIdentifier
        let deadline = Task { [weak self] in
            try await Task.sleep(for: options.timeout)
            self?.fail(id, with: .timedOut, task: task)
        }
        defer { deadline.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    exchanges.withLock { $0[id] = Exchange(continuation: continuation, options: options) }
                    task.resume()
                }
            } onCancel: {
                self.fail(id, with: .cancelled, task: task)
            }
        } catch let error as NetworkError {
            throw error
        } catch {
            throw .transport(reason: "\(error)")
        }
    }

    /// Records why a task is being stopped, then cancels it; completion reports that reason.
    private func fail(_ id: Int, with error: NetworkError, task: URLSessionTask) {
        exchanges.withLock { exchanges in
            if exchanges[id] != nil, exchanges[id]?.outcome == nil {
                exchanges[id]?.outcome = error
            }
        }
        task.cancel()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let tooLarge = exchanges.withLock { exchanges -> Bool in
            guard var exchange = exchanges[dataTask.taskIdentifier] else { return false }
            exchange.response = response as? HTTPURLResponse
            // The header, not expectedContentLength: Foundation reports -1 for an encoded body.
            if let encoding = exchange.response?.value(forHTTPHeaderField: "Content-Encoding"),
                encoding.lowercased() != "identity",
                let length = exchange.response?.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init),
                length > 0
            {
                exchange.compressedLength = length
            }
            let large = response.expectedContentLength > exchange.options.maxResponseBytes
            if large { exchange.outcome = .responseTooLarge(limit: exchange.options.maxResponseBytes) }
            exchanges[dataTask.taskIdentifier] = exchange
            return large
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (report, received, expected, tooLarge) = exchanges.withLock {
            exchanges -> (ProgressHandler?, Int64, Int64?, Bool) in
            guard var exchange = exchanges[dataTask.taskIdentifier] else { return (nil, 0, nil, false) }
            guard exchange.body.count + data.count <= exchange.options.maxResponseBytes else {
                exchange.outcome = exchange.outcome ?? .responseTooLarge(limit: exchange.options.maxResponseBytes)
                exchanges[dataTask.taskIdentifier] = exchange
                return (nil, 0, nil, true)
            }
            if let compressed = exchange.compressedLength,
                exchange.body.count + data.count > compressed * URLSessionTransport.decompressionRatioLimit
            {
                exchange.outcome =
                    exchange.outcome
                    ?? .decompressionFailed(
                        reason:
                            "it inflates to more than \(URLSessionTransport.decompressionRatioLimit) times its compressed size"
                    )
                exchanges[dataTask.taskIdentifier] = exchange
                return (nil, 0, nil, true)
            }
            exchange.body.append(data)
            exchanges[dataTask.taskIdentifier] = exchange
            let length = exchange.response?.expectedContentLength ?? -1
            return (exchange.options.progress, Int64(exchange.body.count), length > 0 ? length : nil, false)
        }
        if tooLarge {
            dataTask.cancel()
            return
        }
        report?(TransferProgress(direction: .download, completedBytes: received, totalBytes: expected))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        let report = exchanges.withLock { $0[task.taskIdentifier]?.options.progress }
        report?(
            TransferProgress(
                direction: .upload, completedBytes: totalBytesSent,
                totalBytes: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }),
            let continuation = exchange.continuation
        else { return }
        if let outcome = exchange.outcome {
            continuation.resume(throwing: outcome)
        } else if let error {
            continuation.resume(throwing: Self.map(error))
        } else if let response = exchange.response {
            continuation.resume(returning: Self.transportResponse(response, body: exchange.body))
        } else {
            continuation.resume(throwing: NetworkError.transport(reason: "the response was not HTTP"))
        }
    }

    private static func transportResponse(_ response: HTTPURLResponse, body: Data) -> TransportResponse {
        var fields = HTTPFields()
        for (key, value) in response.allHeaderFields {
            guard let name = (key as? String).flatMap({ HTTPField.Name($0) }), let value = value as? String else {
                continue
            }
            fields.append(HTTPField(name: name, value: value))
        }
        return TransportResponse(
            head: HTTPResponse(status: .init(code: response.statusCode), headerFields: fields), body: body)
    }

    /// Maps `URLError` codes to the kit's cases.
    static func map(_ error: any Error) -> NetworkError {
        guard let urlError = error as? URLError else { return .transport(reason: "\(error)") }
        switch urlError.code {
        case .cancelled:
            return .cancelled
        case .timedOut:
            return .timedOut
        case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet,
            .dnsLookupFailed, .secureConnectionFailed:
            return .noConnection(reason: urlError.localizedDescription)
        default:
            return .transport(reason: urlError.localizedDescription)
        }
    }
}
