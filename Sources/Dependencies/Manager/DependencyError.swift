/// Why a dependency could not be resolved, naming the types involved.
public enum DependencyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing is registered for the type; `path` is the chain of types being resolved when it was needed.
    case missing(type: String, path: [String])
    /// Resolving the type needs the type itself; `path` is the cycle, first and last the same.
    case cycle(path: [String])
    /// A factory threw an error of its own.
    case factoryFailed(type: String, reason: String)
    /// A resolved value was not of the registered type (a factory registered under the wrong type).
    case typeMismatch(type: String)
    /// ``DependencyContainer/validate(required:)`` found problems; every one is listed.
    case validationFailed([DependencyError])

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .missing(let type, let path):
            path.isEmpty
                ? "nothing is registered for \(type)"
                : "nothing is registered for \(type) (needed by \(path.joined(separator: " → ")))"
        case .cycle(let path):
            "dependency cycle: \(path.joined(separator: " → "))"
        case .factoryFailed(let type, let reason):
            "the factory for \(type) failed: \(reason)"
        case .typeMismatch(let type):
            "the factory registered for \(type) returned another type"
        case .validationFailed(let problems):
            "dependencies are incomplete:\n" + problems.map { "  - \($0.description)" }.joined(separator: "\n")
        }
    }
}
