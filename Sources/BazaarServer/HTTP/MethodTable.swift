import BazaarAPI

/// Which methods each contract path takes, so a known path with another method is answered
/// 405 with `Allow` rather than 404.
struct MethodTable: Sendable {
    private let routes: [(segments: [Substring], method: String)]

    init(_ routes: [APIRoute]) {
        self.routes = routes.map { (Self.segments($0.template), $0.method) }
    }

    /// The methods routed for a request path (without query), sorted; empty for an unknown path.
    ///
    /// Like the router, a literal segment wins over a parameter: `/v1/users/me` is the `me`
    /// route, not `/v1/users/{id}`.
    func allowedMethods(forPath path: String) -> [String] {
        let request = Self.segments(path)
        let matches = routes.filter { route in
            route.segments.count == request.count
                && zip(route.segments, request).allSatisfy { template, actual in
                    (Self.isParameter(template) && !actual.isEmpty) || template == actual
                }
        }
        guard let best = matches.map({ Self.specificity($0.segments) }).max(by: { $0.lexicographicallyPrecedes($1) })
        else {
            return []
        }
        return Set(matches.filter { Self.specificity($0.segments) == best }.map(\.method)).sorted()
    }

    /// 1 for each literal segment, 0 for each parameter, compared left to right.
    private static func specificity(_ segments: [Substring]) -> [Int] {
        segments.map { isParameter($0) ? 0 : 1 }
    }

    private static func isParameter(_ segment: Substring) -> Bool {
        segment.first == "{" && segment.last == "}"
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }
}
