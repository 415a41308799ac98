import Foundation
import HTTPTypes

/// A request as a `curl` command line, to run in a terminal or paste into a bug report.
///
/// ```swift
/// let request = try URLRequestBuilder(baseURL: serverURL, request: SearchProducts(text: "lamp")).build()
/// print(CurlCommand(request))   // curl 'http://127.0.0.1:8080/v1/products?query=lamp&limit=20' -H …
/// ```
///
/// Secrets are redacted unless asked otherwise, as in the kit's logs (``Redaction``): the values
/// of `Authorization`, `Proxy-Authorization`, `Cookie` and other secret header fields, of secret
/// query parameters (`?token=`), and of secret fields of a JSON or form body (`password`,
/// `refreshToken`). With ``Secrets/included`` the command sends what the request holds, byte for
/// byte: run with `sh -c`, the server sees the method, path, query, header fields and body the
/// kit would have sent (curl adds `Host`, `Content-Length` and, when the request has none, its own
/// `Accept` and `User-Agent`).
///
/// A body in memory is written out: text in single quotes, anything else piped in from a POSIX
/// `printf` with octal escapes. A body streamed from disk (a multipart upload of files) is not
/// read; the command then says so in a trailing comment and sends none.
public struct CurlCommand: Sendable, CustomStringConvertible {
    /// Whether secrets appear in the command.
    public enum Secrets: Sendable, Hashable {
        /// Replaced by `[REDACTED]` (the default).
        case redacted
        /// Written as they are: the command reproduces the request exactly. Keep it out of logs.
        case included
    }

    /// The words of the `curl` command, unquoted (`curl`, then the options and the URL), for
    /// running it without a shell.
    public let arguments: [String]
    /// The body's bytes when they travel on standard input (`--data-binary @-`), else `nil`.
    public let standardInput: Data?
    /// Why the body is not in the command, when it is not.
    public let omittedBody: String?

    /// The command for `request`, secrets redacted unless `secrets` says otherwise.
    public init(_ request: TransportRequest, secrets: Secrets = .redacted) {
        let head = request.head
        let redacting = secrets == .redacted
        var arguments = ["curl"]
        switch head.method {
        case .get: break
        case .head: arguments.append("--head")
        default: arguments += ["-X", head.method.rawValue]
        }
        let path = head.path ?? "/"
        arguments.append(
            (head.scheme ?? "http") + "://" + (head.authority ?? "") + (redacting ? Redaction.path(path) : path))
        for field in head.headerFields {
            let hidden = redacting && Redaction.isSensitive(name: field.name.rawName)
            arguments += ["-H", "\(field.name.rawName): \(hidden ? Redaction.placeholder : field.value)"]
        }
        var standardInput: Data?
        var omittedBody: String?
        switch request.body?.storage {
        case nil:
            break
        case .bytes(let data)?:
            let shown = redacting ? Self.redacted(data, contentType: head.headerFields[.contentType]) : data
            if let text = String(data: shown, encoding: .utf8), !text.contains("\0") {
                arguments += ["--data-binary", text]
            } else {
                arguments += ["--data-binary", "@-"]
                standardInput = shown
            }
        case .stream?:
            omittedBody =
                "a body of \(request.body?.length.map { "\($0) bytes" } ?? "unknown length") streamed, not shown"
        }
        self.arguments = arguments
        self.standardInput = standardInput
        self.omittedBody = omittedBody
    }

    /// The command as one line for a POSIX shell: every word single-quoted where it needs to be,
    /// a binary body piped in from `printf`, a body that is not shown named in a comment.
    public var description: String {
        var line = arguments.map(Self.quoted).joined(separator: " ")
        if let standardInput {
            line = "printf '" + Self.octalEscaped(standardInput) + "' | " + line
        }
        if let omittedBody { line += "  # \(omittedBody)" }
        return line
    }

    /// `word` as one shell word: bare when it holds only safe characters, else in single quotes.
    static func quoted(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar))
                    || "-_./:=@,%+".unicodeScalars.contains(scalar))
        }
        if safe, !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Every byte as `\ooo`, which POSIX `printf` turns back into the byte.
    static func octalEscaped(_ data: Data) -> String {
        var text = ""
        text.reserveCapacity(data.count * 4)
        for byte in data {
            text += "\\" + String(byte, radix: 8).leftPadded(to: 3)
        }
        return text
    }

    /// A JSON or form body with its secret fields replaced; any other body as it is.
    static func redacted(_ data: Data, contentType: String?) -> Data {
        let type = contentType?.lowercased() ?? ""
        if type.hasPrefix("application/json") || type.contains("+json") {
            return Data(Redaction.body(data).utf8)
        }
        if type.hasPrefix("application/x-www-form-urlencoded"), let text = String(data: data, encoding: .utf8) {
            return Data(Redaction.path("?" + text).dropFirst().utf8)
        }
        return data
    }
}

extension String {
    /// The string with zeros before it, up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
