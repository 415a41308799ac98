import BazaarAPI
import Dependencies
import Foundation
import Hummingbird

extension WebApp {
    func addChatRoutes(to router: Router<BasicRequestContext>) {
        router.get("/conversations") { request, context in
            try await page(request, context) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.chatModule.conversationsScreen().logic
                    switch await logic.send(.load) {
                    case .presenting(let content):
                        let view = ConversationListView(content: content, nav: page.nav(live: "/live/conversations"))
                        return page.render(view, "conversations")
                    case .failed(let error): return page.failed(error)
                    case .loading: return page.redirect(to: "/conversations")
                    }
                }
            }
        }
        router.get("/conversations/{id}") { request, context in
            let id = try context.parameters.require("id")
            let older = request.uri.queryParameters.get("older") != nil
            return try await page(request, context) { page in
                try await page.signedIn { user in
                    let logic = try page.dependencies.chatModule.messagesScreen(conversationID: id).logic
                    var state = await logic.send(.load)
                    if older { state = await logic.send(.loadOlder) }
                    guard let content = state.content else {
                        return page.failed(state.error ?? ScreenError(kind: .notFound, message: "No such conversation."))
                    }
                    if content.conversation.unreadCount > 0 { await logic.send(.markRead) }
                    let view = ConversationView(content: content, me: user.id, nav: page.nav(live: "/live/conversations/\(id)"))
                    return page.render(view, "conversation")
                }
            }
        }
        router.post("/conversations/{id}/messages") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    let body = (page.form["body"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                    guard !body.isEmpty, body.count <= 4000 else {
                        return page.failed(ScreenError(kind: .invalidInput, message: "A message is 1 to 4000 characters."))
                    }
                    // Queued durably here; the account's outbox delivers it, now or when the server is back.
                    _ = try await page.dependencies.chatModule.messageSender(toConversation: id).sendNewMessage(with: body)
                    return page.redirect(to: "/conversations/\(id)")
                }
            }
        }
        router.get("/live/conversations/{id}") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context) { page in
                try await page.signedIn { user in
                    let logic = try page.dependencies.chatModule.messagesScreen(conversationID: id).logic
                    await logic.send(.load)
                    let nav = page.nav()
                    return LiveFragments.stream(await logic.states()) { state in
                        state.content.map { content in
                            LiveFragments.Fragment(
                                id: "message-list",
                                html: page.renderer.render(ConversationView(content: content, me: user.id, nav: nav), "messageList"))
                        }
                    }
                }
            }
        }
        router.get("/live/conversations") { request, context in
            try await page(request, context) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.chatModule.conversationsScreen().logic
                    await logic.send(.load)
                    let nav = page.nav()
                    return LiveFragments.stream(await logic.states()) { state in
                        state.content.map { content in
                            LiveFragments.Fragment(
                                id: "conversation-list",
                                html: page.renderer.render(ConversationListView(content: content, nav: nav), "conversationList"))
                        }
                    }
                }
            }
        }
    }
}
