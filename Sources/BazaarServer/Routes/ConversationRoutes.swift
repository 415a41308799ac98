import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import HTTPTypes
import Hummingbird

/// `/v1/conversations*`: the caller's conversations, their messages, sending and read markers.
///
/// Every route answers 404 for a conversation that is not the caller's, exactly as for one that
/// does not exist.
struct ConversationRoutes: RouteGroup {
    let deps: ServerDependencies

    func register(on router: Router<BazaarRequestContext>) {
        router.on(APIRoutes.conversations) { request, _ in
            let caller = try await deps.authenticator.authenticate(request)
            let limit = try QueryParameters.limit(request)
            let position = try Cursor.decodeConversation(QueryParameters.cursor(request, "cursor"))
            let result = try await deps.store.conversations(viewerId: caller.userId, before: position, limit: limit)
            return try JSONResponse.make(Page(items: result.items, nextCursor: result.next.map(Cursor.encode)))
        }
        router.on(APIRoutes.startConversation) { request, _ in try await start(request) }
        router.on(APIRoutes.conversation) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            guard
                let conversation = try await deps.store.conversation(
                    id: try context.pathId("The conversation"), viewerId: caller.userId)
            else {
                throw APIError.notFound("The conversation")
            }
            return try JSONResponse.make(conversation)
        }
        router.on(APIRoutes.messages) { request, context in
            let caller = try await deps.authenticator.authenticate(request)
            let limit = try QueryParameters.limit(request, default: 50)
            let position = try Cursor.decodeSeq(QueryParameters.cursor(request, "before"), kind: .messages)
            let conversationId = try context.pathId("The conversation")
            guard
                let slice = try await deps.store.messages(
                    conversationId: conversationId, viewerId: caller.userId, before: position, limit: limit)
            else { throw APIError.notFound("The conversation") }
            // An open chat asks for its newest page again and again: its bytes are kept while it stays the same.
            guard position == nil else { return JSONResponse.make(encoded: EncodedHistoryPages.encode(slice)) }
            return JSONResponse.make(
                encoded: deps.historyPages.body(of: slice, conversationId: conversationId, limit: limit))
        }
        router.on(APIRoutes.sendMessage) { request, context in
            try await send(request, context)
        }
        router.on(APIRoutes.markRead) { request, context in
            try await markRead(request, context)
        }
    }

    func start(_ request: Request) async throws -> Response {
        let caller = try await deps.authenticator.authenticate(request)
        let body = try await RequestBody.decode(StartConversationRequest.self, from: request)
        let result = try await deps.services.conversations.start(
            with: body.userId, about: body.productId, by: caller.userId)
        return try JSONResponse.make(result.conversation, status: result.created ? .created : .ok)
    }

    func send(_ request: Request, _ context: BazaarRequestContext) async throws -> Response {
        let caller = try await deps.authenticator.authenticate(request)
        let conversationId = try context.pathId("The conversation")
        let key = request.headers.value(named: APIHeaders.idempotencyKey)
        let body = try await RequestBody.decode(SendMessageRequest.self, from: request)
        switch try await deps.services.messages.send(
            body.body, attachmentIds: body.attachmentIds, idempotencyKey: key, to: conversationId, from: caller.userId)
        {
        case .created(let message):
            return JSONResponse.make(message, status: .created)
        case .replayed(let message):
            var headers = HTTPFields()
            if let name = HTTPField.Name(APIHeaders.idempotentReplayed) { headers[name] = "true" }
            return JSONResponse.make(message, status: .created, headers: headers)
        }
    }

    func markRead(_ request: Request, _ context: BazaarRequestContext) async throws -> Response {
        let caller = try await deps.authenticator.authenticate(request)
        let conversationId = try context.pathId("The conversation")
        let body = try await RequestBody.decode(MarkReadRequest.self, from: request)
        try await deps.services.conversations.markRead(conversationId, upTo: body.upTo, by: caller.userId)
        return Response(status: .noContent)
    }
}
