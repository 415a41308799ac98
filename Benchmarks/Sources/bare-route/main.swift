import ArgumentParser
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt
import NIOPosix

/// `bare-route`: a Hummingbird 2 server that answers Bazaar's read and write paths with fixed,
/// pre-recorded bytes and does no other work: the ceiling the load tool compares `bazaar-server`
/// with (same framework, same loopback, same load generator; no routing logic, storage, auth or
/// encoding).
///
/// Each body file may have a sibling `<file>.headers` with `Name: value` lines (for example the
/// real server's `ETag` and `Cache-Control`), added to that route's answer; `Content-Type` is
/// `application/json; charset=utf-8` unless that file sets another.
@main
struct BareRoute: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bare-route",
        abstract: "Serves fixed bytes on Bazaar's paths: the ceiling for the load tool.",
        discussion: """
            GET /v1/products answers --body-file. With the optional files it also answers \
            GET /v1/products/{id}, GET /v1/conversations/{id}/messages, \
            POST /v1/conversations/{id}/messages (201, after reading the request body) and \
            POST /v1/auth/login (after reading the request body). Anything else is 404. \
            With --login-bcrypt-cost, a login also checks its password against a bcrypt hash \
            of --login-password made at that cost (401 when it does not match), off the event \
            loop as bazaar-server checks it: a yardstick that does the one costly thing the \
            real sign-in must do, and nothing else.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free port (the URL is printed).")
    var port = 0

    @Option(help: "The body of GET /v1/products (any query).")
    var bodyFile: String

    @Option(help: "The body of GET /v1/products/{id}.")
    var productFile: String?

    @Option(help: "The body of GET /v1/conversations/{id}/messages.")
    var messagesFile: String?

    @Option(help: "The body of POST /v1/conversations/{id}/messages (status 201).")
    var messageFile: String?

    @Option(help: "The body of POST /v1/auth/login.")
    var loginFile: String?

    @Option(help: "Check each login's password with bcrypt at this cost (4-31) before answering.")
    var loginBcryptCost: Int?

    @Option(help: "The password logins must give when --login-bcrypt-cost is set.")
    var loginPassword = "load-test-password"

    func validate() throws {
        if let loginBcryptCost, !(4...31).contains(loginBcryptCost) {
            throw ValidationError("--login-bcrypt-cost must be between 4 and 31")
        }
        if loginBcryptCost != nil, loginFile == nil {
            throw ValidationError("--login-bcrypt-cost needs --login-file")
        }
    }

    /// Loads the answers, registers the routes and serves until SIGTERM or SIGINT.
    func run() async throws {
        let router = Router()
        let list = try FixedAnswer(file: bodyFile, status: .ok)
        router.get("/v1/products") { _, _ in list.response() }
        if let productFile {
            let answer = try FixedAnswer(file: productFile, status: .ok)
            router.get("/v1/products/:id") { _, _ in answer.response() }
        }
        if let messagesFile {
            let answer = try FixedAnswer(file: messagesFile, status: .ok)
            router.get("/v1/conversations/:id/messages") { _, _ in answer.response() }
        }
        if let messageFile {
            let answer = try FixedAnswer(file: messageFile, status: .created)
            router.post("/v1/conversations/:id/messages") { request, _ in
                _ = try await request.body.collect(upTo: 64 * 1024)
                return answer.response()
            }
        }
        if let loginFile {
            let answer = try FixedAnswer(file: loginFile, status: .ok)
            let check = loginBcryptCost.map { PasswordCheck(password: loginPassword, cost: $0) }
            router.post("/v1/auth/login") { request, _ in
                let body = try await request.body.collect(upTo: 64 * 1024)
                if let check, try await !check.accepts(body) {
                    return Response(status: .unauthorized)
                }
                return answer.response()
            }
        }
        router.get("/health") { _, _ in "ok" }
        let host = self.host
        let app = Application(
            router: router,
            // The same Server header as bazaar-server, so the bytes on the wire match.
            configuration: .init(address: .hostname(host, port: port), serverName: "bazaar"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                FileHandle.standardOutput.write(Data("bare-route listening on http://\(host):\(port)\n".utf8))
            }
        )
        try await app.runService()
    }
}

/// One pre-recorded answer: status, headers and body bytes, built once and copied per request
/// (a `ByteBuffer` copy shares the storage).
struct FixedAnswer: Sendable {
    /// Why a body or headers file could not be used.
    struct Failure: Error, CustomStringConvertible {
        /// In words.
        let description: String
    }

    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: ByteBuffer

    /// Reads `file` and, when present, `file.headers`.
    init(file: String, status: HTTPResponse.Status) throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw Failure(description: "cannot read \(file)")
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        if let extra = FileManager.default.contents(atPath: file + ".headers") {
            for line in String(decoding: extra, as: UTF8.self).split(whereSeparator: \.isNewline) {
                guard let colon = line.firstIndex(of: ":"),
                    let name = HTTPField.Name(String(line[..<colon]).trimmingCharacters(in: .whitespaces))
                else { throw Failure(description: "\(file).headers: not a `Name: value` line: \(line)") }
                headers[name] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            }
        }
        self.status = status
        self.headers = headers
        body = ByteBuffer(bytes: data)
    }

    /// The answer as a response.
    func response() -> Response {
        Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}

/// The bcrypt check of a login's password: the cost the real sign-in cannot avoid.
struct PasswordCheck: Sendable {
    /// The `password` field of a login body.
    private struct Login: Decodable {
        let password: String
    }

    let hash: String

    /// Hashes `password` at `cost` once, at start.
    init(password: String, cost: Int) {
        hash = Bcrypt.hash(password, cost: UInt8(cost))
    }

    /// Whether `body` is a login whose password matches, checked on NIO's thread pool.
    func accepts(_ body: ByteBuffer) async throws -> Bool {
        guard let login = try? JSONDecoder().decode(Login.self, from: Data(body.readableBytesView)) else {
            return false
        }
        return try await NIOThreadPool.singleton.runIfActive { [hash] in
            Bcrypt.verify(login.password, hash: hash)
        }
    }
}
