import Dependencies
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Server-Sent Events of page fragments: each state a screen's logic publishes is rendered and
/// sent as `{"id": element id, "html": markup}`; the page's script swaps the element. A comment
/// every few seconds keeps the connection checked: once the browser has gone, the next write fails
/// and the screen stops following.
enum LiveFragments {
    /// How often an idle stream is written to.
    static let keepAlive = Duration.seconds(5)

    /// One fragment to swap in.
    struct Fragment: Encodable, Sendable, Equatable {
        var id: String
        var html: String
    }

    /// A streaming response of `states`, each turned into a fragment by `render` (nil skips it);
    /// repeated fragments are sent once.
    static func stream<State: Sendable>(
        _ states: AsyncStream<State>, render: @escaping @Sendable (State) -> Fragment?
    ) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                // States and keep-alive ticks go through one stream, so a write to a browser that left
                // fails within a tick and ends the subscription (and the screen's live following).
                let (events, sink) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(16))
                let feeding = Task {
                    var last: Fragment?
                    for await state in states {
                        guard let fragment = render(state), fragment != last else { continue }
                        last = fragment
                        guard let json = try? JSONEncoder().encode(fragment) else { continue }
                        sink.yield("event: fragment\ndata: \(String(decoding: json, as: UTF8.self))\n\n")
                    }
                    sink.finish()
                }
                let ticking = Task {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: keepAlive)
                        sink.yield(": keep-alive\n\n")
                    }
                }
                defer {
                    feeding.cancel()
                    ticking.cancel()
                }
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                for await event in events { try await writer.write(ByteBuffer(string: event)) }
                try await writer.finish(nil)
            })
    }
}

extension WebPage {
    /// The live form of a screen: performs `actions` on `logic` in order, then streams every state it
    /// publishes, drawn by `view` through `template` into the page element `element` (a state
    /// `view` maps to nil is skipped).
    func live<Logic: LogicController>(
        _ logic: Logic, after actions: [Logic.Action], element: String, template: String,
        view: @escaping @Sendable (Logic.State, NavigationView) -> (any Sendable)?
    ) async -> Response {
        for action in actions { await logic.send(action) }
        let nav = nav()
        let renderer = renderer
        return LiveFragments.stream(await logic.states()) { state in
            view(state, nav).map { LiveFragments.Fragment(id: element, html: renderer.render($0, template)) }
        }
    }
}
