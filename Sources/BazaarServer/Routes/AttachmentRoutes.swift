import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import Hummingbird

/// `/v1/conversations/{id}/attachments*`: a member uploads a photo to send with a message
/// (``AttachmentService``), and the conversation's members read it. For anyone else every size of
/// it is 404, whatever URL they hold.
struct AttachmentRoutes: RouteGroup {
    let deps: ServerDependencies

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.uploadAttachment) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let conversationId = try context.pathId("The conversation")
            let sizes = try await UploadedImage.receive(request, chargedTo: caller.userId, deps: deps)
            let photo = try await deps.services.attachments.upload(sizes, to: conversationId, by: caller.userId)
            return JSONResponse.make(photo, status: .created)
        }
        router.on(APIRoutes.attachment) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            guard
                let photo = try await deps.store.attachmentPhoto(
                    conversationId: try context.pathId("The photo"), attachmentId: try context.attachmentId(),
                    viewerId: caller.userId, size: try UploadedImage.size(request))
            else { throw APIError.notFound("The photo") }
            // Its URL names one upload; only those signed in as a member may keep it.
            return UploadedImage.response(photo, request: request, cacheControl: "private, max-age=31536000, immutable")
        }
    }
}

extension BazaarRequestContext {
    /// The `{attachment}` path parameter: 404 unless it is an id.
    func attachmentId() throws -> String {
        guard let id = parameters.get("attachment"), Validation.isId(id) else { throw APIError.notFound("The photo") }
        return id
    }
}
