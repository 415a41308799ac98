import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ZIPFoundation

/// The caller's own account: `/v1/users/me/password`, `/v1/users/me/sessions*`,
/// `/v1/users/me/export` and `DELETE /v1/users/me`. The rules are the services'
/// (``AccountService``, ``SessionService``, ``AccountExportService``).
struct AccountRoutes: RouteGroup {
    let deps: ServerDependencies

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.changePassword) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let body = try await RequestBody.decode(ChangePasswordRequest.self, from: request)
            try await deps.services.accounts.changePassword(
                of: caller.userId, from: body.currentPassword, to: body.newPassword, keeping: caller.sessionId,
                address: deps.clientAddress(request, peer: context.clientAddress))
            return Response(status: .noContent)
        }
        router.on(APIRoutes.sessions) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            let sessions = try await deps.services.sessions.sessions(of: caller.userId, current: caller.sessionId)
            return try JSONResponse.make(AccountSessions(items: sessions))
        }
        router.on(APIRoutes.endSession) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            try await deps.services.sessions.end(try context.pathId("The session"), of: caller.userId)
            return Response(status: .noContent)
        }
        router.on(APIRoutes.endOtherSessions) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            try await deps.services.sessions.endOthers(of: caller.userId, keeping: caller.sessionId)
            return Response(status: .noContent)
        }
        router.on(APIRoutes.exportAccount) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            let export = try await deps.services.exports.export(caller.userId)
            let zip = try Self.zip(export)
            var headers = HTTPFields()
            headers[.contentType] = "application/zip"
            headers[.contentDisposition] = "attachment; filename=\"bazaar-export.zip\""
            headers[.cacheControl] = "private, no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: zip)))
        }
        router.on(APIRoutes.deleteAccount) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let body = try await RequestBody.decode(DeleteAccountRequest.self, from: request)
            try await deps.services.accounts.delete(
                caller.userId, password: body.password,
                address: deps.clientAddress(request, peer: context.clientAddress))
            deps.logger.info("account deleted", metadata: ["user.id": "\(caller.userId)"])
            return Response(status: .noContent)
        }
    }

    /// The export as a ZIP archive, built in memory (an account's data and photos, a few MB at most).
    static func zip(_ export: AccountExport) throws -> Data {
        let archive = try Archive(accessMode: .create)
        for file in export.files {
            try archive.addEntry(
                with: file.path, type: .file, uncompressedSize: Int64(file.data.count),
                compressionMethod: file.path.hasSuffix(".json") ? .deflate : .none,
                provider: { position, size in
                    file.data.subdata(in: Data.Index(position)..<Data.Index(position) + size)
                })
        }
        guard let data = archive.data else { throw APIError.unavailable("the export could not be written") }
        return data
    }
}
