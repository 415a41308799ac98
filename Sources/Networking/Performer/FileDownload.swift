import Foundation
import HTTPTypes
import Synchronization

/// Why a download to a file did not finish.
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The exchange failed (no connection, a cut, a timeout, an error status…).
    case network(NetworkError)
    /// The file changed on the server since the partial copy was started (its `ETag` is not the
    /// one the partial copy was made from), so the copy cannot be resumed: start again.
    case changedOnServer
    /// The file on this side could not be written or moved.
    case file(reason: String)

    public var description: String {
        switch self {
        case .network(let error): error.description
        case .changedOnServer: "The file changed on the server since the download began; download it again."
        case .file(let reason): "The download could not be saved: \(reason)."
        }
    }
}

extension NetworkRequestPerformer {
    /// Downloads what `request` answers into `destination`, streaming it to disk, and resumes a
    /// download cut short before.
    ///
    /// The bytes go to `destination` + `.part`, with the answer's `ETag` kept beside it in
    /// `.part-etag`. When both are there from an earlier try, the request asks only for the rest
    /// (`Range: bytes=N-`) and only if the file is the same (`If-Range: <ETag>`): a `206` is
    /// appended; a `200` means the file changed, which is ``DownloadError/changedOnServer``. Once
    /// complete, the partial file is moved to `destination` (replacing it) and its ETag removed.
    ///
    /// A failure keeps the partial file for the next try when `keepingPartialFile` is true (the
    /// default), and removes it otherwise. The request goes to the transport as given (no cache,
    /// no retries: resuming is the retry), bounded by the performer's `timeout` for the whole
    /// download; add `Authorization` yourself where it is needed.
    ///
    /// - Returns: `destination`.
    @discardableResult
    public func download(
        _ request: TransportRequest, to destination: URL, keepingPartialFile: Bool = true,
        progress: ProgressHandler? = nil
    ) async throws(DownloadError) -> URL {
        let partial = destination.appendingPathExtension("part")
        let etagFile = destination.appendingPathExtension("part-etag")
        let files = FileManager.default
        var offset: Int64 = 0
        var etag: String?
        if let saved = try? String(contentsOf: etagFile, encoding: .utf8),
            let size = (try? files.attributesOfItem(atPath: partial.path))?[.size] as? Int64, size > 0
        {
            offset = size
            etag = saved
        } else {
            // A partial file without its ETag cannot be resumed: start over, or say why not.
            try files.removeIfPresent(partial)
            try files.removeIfPresent(etagFile)
        }
        var request = request
        if offset > 0, let etag {
            request.head.headerFields[.range] = "bytes=\(offset)-"
            request.head.headerFields[.ifRange] = etag
        }
        let writer = PartialFileWriter(partial: partial, etagFile: etagFile, offset: offset)
        var reporting: ProgressHandler?
        if let progress {
            let start = offset
            reporting = { @Sendable (step: TransferProgress) in
                progress(
                    TransferProgress(
                        direction: .download, completedBytes: start + step.completedBytes,
                        totalBytes: step.totalBytes.map { start + $0 }))
            }
        }
        let outcome: Result<HTTPResponse, NetworkError>
        do {
            outcome = .success(
                try await transport.download(
                    request, options: TransferOptions(timeout: timeout, progress: reporting),
                    into: DownloadBody(accepts: writer.accepts, take: writer.take)))
        } catch {
            outcome = .failure(error)
        }
        writer.close()
        do throws(DownloadError) {
            let head = try outcome.mapError(DownloadError.network).get()
            try writer.verdict(for: head)
            try files.replacing(destination, with: partial)
            // The file is complete; an ETag left behind only makes the next download start over.
            try? files.removeItem(at: etagFile)
            return destination
        } catch {
            if !keepingPartialFile {
                // Best effort beside the error thrown: a file left here is started over next time.
                try? files.removeItem(at: partial)
                try? files.removeItem(at: etagFile)
            }
            throw error
        }
    }
}

extension FileManager {
    /// Removes `file` when it is there; throws when it is there and cannot be removed.
    fileprivate func removeIfPresent(_ file: URL) throws(DownloadError) {
        guard fileExists(atPath: file.path) else { return }
        do {
            try removeItem(at: file)
        } catch {
            throw .file(reason: "\(error)")
        }
    }

    /// Moves `source` to `destination`, replacing what is there.
    fileprivate func replacing(_ destination: URL, with source: URL) throws(DownloadError) {
        try removeIfPresent(destination)
        do {
            try moveItem(at: source, to: destination)
        } catch {
            throw .file(reason: "\(error)")
        }
    }
}

/// Decides from the head whether the body continues the partial file, starts it over, or is not
/// wanted, and appends what comes.
private final class PartialFileWriter: Sendable {
    private enum Decision: Sendable {
        case undecided
        case append
        case changed
        case complete
        case refused(HTTPResponse)
        case failed(String)
    }

    private let partial: URL
    private let etagFile: URL
    private let offset: Int64
    private let state = Mutex<(decision: Decision, handle: FileHandle?)>((.undecided, nil))

    init(partial: URL, etagFile: URL, offset: Int64) {
        self.partial = partial
        self.etagFile = etagFile
        self.offset = offset
    }

    /// Opens the partial file for what follows, or says why not.
    func accepts(_ head: HTTPResponse) -> Bool {
        state.withLock { state in
            let decision = decide(head)
            state.decision = decision
            guard case .append = decision else { return false }
            do {
                let files = FileManager.default
                if head.status == .ok {
                    // From the start: a new partial file, and the ETag it is a copy of.
                    _ = files.createFile(atPath: partial.path, contents: nil)
                    if let etag = head.headerFields[.eTag] {
                        try etag.write(to: etagFile, atomically: true, encoding: .utf8)
                    } else {
                        // An old ETag beside new bytes would refuse the next resume as changed.
                        try files.removeIfPresent(etagFile)
                    }
                }
                let handle = try FileHandle(forWritingTo: partial)
                try handle.seekToEnd()
                state.handle = handle
                return true
            } catch {
                state.decision = .failed("\(error)")
                return false
            }
        }
    }

    private func decide(_ head: HTTPResponse) -> Decision {
        switch head.status.code {
        case 200 where offset > 0:
            return .changed
        case 200:
            return .append
        case 206 where offset > 0:
            let range = head.headerFields[.contentRange] ?? ""
            guard range.hasPrefix("bytes \(offset)-") else {
                return .failed("the server sent \"\(range)\" where bytes from \(offset) were asked for")
            }
            return .append
        case 416 where offset > 0 && head.headerFields[.contentRange] == "bytes */\(offset)":
            // Everything was already here: the cut came after the last byte.
            return .complete
        default:
            return .refused(head)
        }
    }

    /// Appends a chunk.
    func take(_ chunk: Data) throws {
        let handle = state.withLock { $0.handle }
        try handle?.write(contentsOf: chunk)
    }

    /// Closes the file. A close that fails may have lost the last bytes written, so it fails a
    /// download that was going well (``verdict(for:)`` then throws) rather than pass as whole.
    func close() {
        state.withLock { state in
            do {
                try state.handle?.close()
            } catch {
                if case .append = state.decision { state.decision = .failed("the file could not be closed: \(error)") }
            }
            state.handle = nil
        }
    }

    /// Whether the download is whole, given the answer's head.
    func verdict(for head: HTTPResponse) throws(DownloadError) {
        switch state.withLock({ $0.decision }) {
        case .append, .complete:
            return
        case .changed:
            throw .changedOnServer
        case .failed(let reason):
            throw .file(reason: reason)
        case .refused(let head):
            throw .network(
                .httpStatus(
                    HTTPStatusFailure(
                        status: head.status, headerFields: head.headerFields, body: Data(), serverError: nil)))
        case .undecided:
            throw .network(.transport(reason: "the download ended before its answer began"))
        }
    }
}
