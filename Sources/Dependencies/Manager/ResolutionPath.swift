/// The chain of types being resolved, for cycle detection and error messages.
///
/// A factory's resolver carries it, and a new instance is made on every transient resolve, so it
/// keeps the first four types inline (a typical chain is two or three deep) and only a deeper
/// chain allocates.
@usableFromInline
struct ResolutionPath: Sendable {
    private var count = 0
    private var first: (ObjectIdentifier?, ObjectIdentifier?, ObjectIdentifier?, ObjectIdentifier?) = (
        nil, nil, nil, nil
    )
    private var rest: [ObjectIdentifier] = []

    /// An empty chain.
    @usableFromInline
    static let empty = ResolutionPath()

    /// The chain with `id` appended.
    func appending(_ id: ObjectIdentifier) -> ResolutionPath {
        var path = self
        switch count {
        case 0: path.first.0 = id
        case 1: path.first.1 = id
        case 2: path.first.2 = id
        case 3: path.first.3 = id
        default: path.rest.append(id)
        }
        path.count += 1
        return path
    }

    /// Whether `id` is already being resolved further up the chain.
    func contains(_ id: ObjectIdentifier) -> Bool {
        first.0 == id || first.1 == id || first.2 == id || first.3 == id || rest.contains(id)
    }

    /// The types in order, outermost first.
    @usableFromInline
    var ids: [ObjectIdentifier] {
        [first.0, first.1, first.2, first.3].compactMap { $0 } + rest
    }
}
