import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Networking
import Synchronization

/// Gathers one answer for ``AsyncHTTPClientTransport``: refuses a body that is too large or
/// compressed when the client cannot inflate it as soon as the head says so, collects the body
/// within the size limit, and reports progress both ways.
///
/// AsyncHTTPClient calls a delegate from the request's event loop, one call at a time; the mutex
/// makes that safe without relying on it, and is never contended.
final class ResponseCollector: HTTPClientResponseDelegate {
    typealias Response = TransportResponse

    private struct State {
        var head: HTTPResponseHead?
        var body: ByteBuffer?
        var expected: Int64?
        var uploaded: Int64 = 0
    }

    private let state = Mutex(State())
    private let maxResponseBytes: Int
    private let decompresses: Bool
    private let isHead: Bool
    private let uploadTotal: Int64?
    private let progress: ProgressHandler?

    /// Makes a collector for one request.
    init(options: TransferOptions, decompresses: Bool, isHead: Bool, uploadTotal: Int64?) {
        self.maxResponseBytes = options.maxResponseBytes
        self.progress = options.progress
        self.decompresses = decompresses
        self.isHead = isHead
        self.uploadTotal = uploadTotal
    }

    /// Reports upload progress as each part of the body reaches the connection.
    func didSendRequestPart(task: HTTPClient.Task<Response>, _ part: IOData) {
        guard let progress else { return }
        let sent = state.withLock { state in
            state.uploaded += Int64(part.readableBytes)
            return state.uploaded
        }
        progress(TransferProgress(direction: .upload, completedBytes: sent, totalBytes: uploadTotal))
    }

    /// Checks the head before any body arrives.
    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        if !decompresses, let encoding = head.headers.first(name: "content-encoding"),
            encoding.lowercased() != "identity"
        {
            return task.eventLoop.makeFailedFuture(
                NetworkError.decompressionFailed(
                    reason: "the server sent a \(encoding) body and this HTTPClient was not configured to decompress"))
        }
        let expected = isHead ? nil : head.headers.first(name: "content-length").flatMap(Int64.init)
        if let expected, expected > maxResponseBytes {
            return task.eventLoop.makeFailedFuture(NetworkError.responseTooLarge(limit: maxResponseBytes))
        }
        state.withLock { state in
            state.head = head
            state.expected = expected
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// Adds a part of the (inflated) body, failing the request once it passes the size limit.
    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        let received: (Int, Int64?)? = state.withLock { state in
            if var body = state.body {
                guard body.readableBytes + part.readableBytes <= maxResponseBytes else { return nil }
                state.body = nil  // keeps `body` uniquely referenced, so the write does not copy
                if let expected = state.expected { body.reserveCapacity(Int(expected)) }
                var part = part
                body.writeBuffer(&part)
                state.body = body
            } else {
                guard part.readableBytes <= maxResponseBytes else { return nil }
                state.body = part
            }
            return (state.body?.readableBytes ?? 0, state.expected)
        }
        guard let (count, expected) = received else {
            return task.eventLoop.makeFailedFuture(NetworkError.responseTooLarge(limit: maxResponseBytes))
        }
        progress?(TransferProgress(direction: .download, completedBytes: Int64(count), totalBytes: expected))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// The whole answer, once the last byte is in.
    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> TransportResponse {
        let (head, body) = state.withLock { ($0.head, $0.body) }
        guard let head else { throw NetworkError.transport(reason: "the answer ended before its head") }
        var fields = HTTPFields()
        fields.reserveCapacity(head.headers.count)
        for header in head.headers {
            if let name = HTTPField.Name(header.name) {
                fields.append(HTTPField(name: name, value: header.value))
            }
        }
        let bytes = body.map { Data(buffer: $0, byteTransferStrategy: .noCopy) } ?? Data()
        return TransportResponse(
            head: HTTPResponse(status: .init(code: Int(head.status.code)), headerFields: fields), body: bytes)
    }
}
