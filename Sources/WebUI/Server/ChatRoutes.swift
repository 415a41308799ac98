import BazaarAPI
import Dependencies
import Foundation
import Hummingbird
import Networking

extension WebApp {
    func addChatRoutes(to router: Router<BasicRequestContext>) {
        router.get("/conversations") { request, context in
            try await page(request, context) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.chatModule.conversationsScreen().logic
                    return page.show(await logic.send(.load), template: "conversations") {
                        ConversationListView(content: $0, nav: page.nav(live: "/live/conversations"))
                    }
                }
            }
        }
        router.get("/conversations/{id}") { request, context in
            let id = try context.parameters.require("id")
            let older = olderPages(request)
            return try await page(request, context) { page in
                try await page.signedIn { user in
                    let logic = try page.dependencies.chatModule.messagesScreen(conversationID: id).logic
                    var state = await logic.send(.load)
                    for _ in 0..<older where state.content?.hasOlder == true { state = await logic.send(.loadOlder) }
                    guard let content = state.content else {
                        return page.failed(
                            state.error ?? ScreenError(kind: .notFound, message: "No such conversation."))
                    }
                    if content.conversation.unreadCount > 0 { await logic.send(.markRead) }
                    let offers = try await page.dependencies.offersModule.offersScreen(conversationID: id).logic.send(
                        .load)
                    let live = "/live/conversations/\(id)" + (older > 0 ? "?older=\(older)" : "")
                    // Once the product is sold: whether the reader reviewed the sale (the other
                    // member's reviews say).
                    var reviewing: ReviewsContent?
                    if content.conversation.product?.status == .sold {
                        reviewing = try await page.dependencies.reviewsModule.reviewsScreen(
                            userID: content.conversation.otherUser.id
                        ).logic.send(.load).content
                    }
                    let view = ConversationView(
                        content: content, offers: offers.content, reviewing: reviewing, me: user.id,
                        olderPages: older, nav: page.nav(live: live))
                    return page.render(view, "conversation")
                }
            }
        }
        router.post("/conversations/{id}/messages") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    let body = (page.form["body"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                    let photos: [PhotoToSend]
                    switch page.photos("photos") {
                    case .success(let chosen): photos = chosen
                    case .failure(let error): return page.failed(error, heading: "The message was not sent")
                    }
                    // Queued durably here (photos and all); the account's outbox uploads and
                    // delivers it, now or when the server is back.
                    do {
                        _ = try await page.dependencies.chatModule.messageSender(toConversation: id).sendNewMessage(
                            with: body, photos: photos)
                    } catch let problem as MessageDraftError {
                        return page.failed(
                            ScreenError(kind: .invalidInput, message: problem.description),
                            heading: "The message was not sent")
                    }
                    return page.redirect(to: "/conversations/\(id)")
                }
            }
        }
        router.get("/conversations/{id}/photos/{photo}") { request, context in
            let id = try context.parameters.require("id")
            let photo = try context.parameters.require("photo")
            let size = request.uri.queryParameters.get("size").flatMap(PhotoSize.init(rawValue:)) ?? .full
            return try await page(request, context) { page in
                guard page.user != nil else { return page.html("", status: .notFound) }
                let chat = try page.dependencies.chatModule
                do throws(NetworkError) {
                    let bytes = try await chat.photo(photo, inConversation: id, size: size)
                    return page.image(bytes)
                } catch {
                    // Whatever the API said (404 to anyone outside the conversation), the page
                    // shows no photo and learns nothing more.
                    return page.html("", status: error.statusCode == 404 ? .notFound : .badGateway)
                }
            }
        }
        router.post("/conversations/{id}/offers") { request, context in
            let id = try context.parameters.require("id")
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    guard let cents = Price.cents(from: page.form["amount"] ?? ""), cents > 0 else {
                        return page.failed(
                            ScreenError(kind: .invalidInput, message: "An offer is a price such as 120 or 99.50."),
                            heading: "The offer was not made")
                    }
                    let logic = try page.dependencies.offersModule.offersScreen(conversationID: id).logic
                    let state = await logic.send(.make(amountCents: cents))
                    if let error = state.error { return page.failed(error, heading: "The offer was not made") }
                    return page.redirect(to: "/conversations/\(id)")
                }
            }
        }
        router.post("/conversations/{id}/offers/{offer}/{decision}") { request, context in
            let id = try context.parameters.require("id")
            let offerID = try context.parameters.require("offer")
            let decision = OfferDecision(rawValue: try context.parameters.require("decision"))
            return try await page(request, context, mutating: true) { page in
                try await page.signedIn { _ in
                    guard let decision else {
                        return page.failed(ScreenError(kind: .notFound, message: "There is no such decision."))
                    }
                    let logic = try page.dependencies.offersModule.offersScreen(conversationID: id).logic
                    let state = await logic.send(.decide(decision, offerID: offerID))
                    if let error = state.error { return page.failed(error, heading: "The offer was not changed") }
                    return page.redirect(to: "/conversations/\(id)#offer-\(offerID)")
                }
            }
        }
        router.get("/live/conversations/{id}") { request, context in
            let id = try context.parameters.require("id")
            let older = olderPages(request)
            return try await page(request, context) { page in
                try await page.signedIn { user in
                    let logic = try page.dependencies.chatModule.messagesScreen(conversationID: id).logic
                    let offers = try page.dependencies.offersModule.offersScreen(conversationID: id).logic
                    let actions = [MessagesAction.load] + Array(repeating: .loadOlder, count: older)
                    return await page.live(logic, after: actions, offers, after: [.load]) { messages, offers, nav in
                        guard let content = messages.content else { return [] }
                        let view = ConversationView(
                            content: content, offers: offers.content, me: user.id, olderPages: older, nav: nav)
                        return [("message-list", "messageList", view), ("offer-form", "offerForm", view)]
                    }
                }
            }
        }
        router.get("/live/conversations") { request, context in
            try await page(request, context) { page in
                try await page.signedIn { _ in
                    let logic = try page.dependencies.chatModule.conversationsScreen().logic
                    return await page.live(
                        logic, after: [.load], element: "conversation-list", template: "conversationList"
                    ) { state, nav in
                        state.content.map { ConversationListView(content: $0, nav: nav) }
                    }
                }
            }
        }
    }

    /// How many pages of earlier messages a conversation page shows (`?older=N`, at most 25).
    private func olderPages(_ request: Request) -> Int {
        min(max(request.uri.queryParameters.get("older", as: Int.self) ?? 0, 0), 25)
    }
}
