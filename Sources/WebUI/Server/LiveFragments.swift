import Dependencies
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

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

    /// A streaming response of `states`, each turned into fragments by `render` (none skips it); a
    /// fragment the same as the last one sent for its element is not sent again.
    static func stream<State: Sendable>(
        _ states: AsyncStream<State>, render: @escaping @Sendable (State) -> [Fragment]
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
                    var last: [String: Fragment] = [:]
                    for await state in states {
                        for fragment in render(state) where last[fragment.id] != fragment {
                            last[fragment.id] = fragment
                            guard let json = try? JSONEncoder().encode(fragment) else { continue }
                            sink.yield("event: fragment\ndata: \(String(decoding: json, as: UTF8.self))\n\n")
                        }
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
            view(state, nav).map { [LiveFragments.Fragment(id: element, html: renderer.render($0, template))] } ?? []
        }
    }

    /// The live form of a page drawn from two screens' logic (a conversation and its offers):
    /// performs each one's actions, then streams, whenever either publishes, the page elements
    /// `view` draws from the latest state of both, each through its template (`view` answers
    /// `(element id, template, view model)` triples; none skips the change).
    func live<First: LogicController, Second: LogicController>(
        _ first: First, after firstActions: [First.Action], _ second: Second, after secondActions: [Second.Action],
        view: @escaping @Sendable (First.State, Second.State, NavigationView) -> [(String, String, any Sendable)]
    ) async -> Response {
        for action in firstActions { await first.send(action) }
        for action in secondActions { await second.send(action) }
        let nav = nav()
        let renderer = renderer
        let pairs = LatestPair.stream(await first.states(), await second.states())
        return LiveFragments.stream(pairs) { pair in
            view(pair.0, pair.1, nav).map { LiveFragments.Fragment(id: $0.0, html: renderer.render($0.2, $0.1)) }
        }
    }
}

/// Two streams of states as one stream of their latest pair, from the moment each has given one.
enum LatestPair {
    /// The pairs; ends when both streams end or the consumer stops.
    static func stream<A: Sendable, B: Sendable>(_ first: AsyncStream<A>, _ second: AsyncStream<B>)
        -> AsyncStream<(A, B)>
    {
        let (pairs, sink) = AsyncStream.makeStream(of: (A, B).self, bufferingPolicy: .bufferingNewest(16))
        let latest = Latest<A, B>()
        let feeding = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await state in first {
                        let pair = latest.pair.withLock { current -> (A, B)? in
                            current.0 = state
                            return current.1.map { (state, $0) }
                        }
                        if let pair { sink.yield(pair) }
                    }
                }
                group.addTask {
                    for await state in second {
                        let pair = latest.pair.withLock { current -> (A, B)? in
                            current.1 = state
                            return current.0.map { ($0, state) }
                        }
                        if let pair { sink.yield(pair) }
                    }
                }
            }
            sink.finish()
        }
        sink.onTermination = { _ in feeding.cancel() }
        return pairs
    }
}

/// The latest state of each of two streams, shared by the tasks that read them.
private final class Latest<A: Sendable, B: Sendable>: Sendable {
    let pair = Mutex<(A?, B?)>((nil, nil))
}
