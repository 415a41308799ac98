import Dependencies
import Synchronization
import Testing

protocol Greeter: Sendable { func greet() -> String }
protocol Clock: Sendable { var tick: Int { get } }
protocol Store: Sendable { var greeter: any Greeter { get } }
protocol A: Sendable {}
protocol B: Sendable {}

final class EnglishGreeter: Greeter {
    func greet() -> String { "hello" }
}

struct FixedGreeter: Greeter {
    var word: String
    func greet() -> String { word }
}

final class CountingClock: Clock {
    static let made = Mutex(0)
    let tick: Int
    init() {
        tick = CountingClock.made.withLock {
            $0 += 1
            return $0
        }
    }
}

struct GreeterStore: Store { var greeter: any Greeter }
struct NeedsB: A { var b: any B }
struct NeedsA: B { var a: any A }

/// The app-side manager, as seed 002 writes it.
final class AppDependencies: DependencyManager {
    let container = DependencyContainer()
    var requiredTypes: [any Any.Type] { [(any Greeter).self, (any Store).self, (any Clock).self] }
}

@Suite("DependencyContainer")
struct DependencyContainerTests {
    @Test("a shared registration hands out one instance to every caller")
    func sharedIsOneInstance() throws {
        let container = DependencyContainer()
        container.register((any Greeter).self) { _ in EnglishGreeter() }
        let first = try container.resolve((any Greeter).self)
        let second = try container.resolve((any Greeter).self)
        #expect(ObjectIdentifier(first as AnyObject) == ObjectIdentifier(second as AnyObject))
        #expect(first.greet() == "hello")
    }

    @Test("a transient registration makes a new instance each time")
    func transientIsNew() throws {
        let container = DependencyContainer()
        container.register((any Clock).self, lifetime: .transient) { _ in CountingClock() }
        let first = try container.resolve((any Clock).self)
        let second = try container.resolve((any Clock).self)
        #expect(first.tick != second.tick)
    }

    @Test("a missing registration is a typed error naming the protocol and who needed it")
    func missingIsTypedError() {
        let container = DependencyContainer()
        container.register((any Store).self) { r in GreeterStore(greeter: try r.resolve((any Greeter).self)) }
        #expect(throws: DependencyError.missing(type: "DependenciesTests.Greeter", path: [])) {
            try container.resolve((any Greeter).self)
        }
        #expect(
            throws: DependencyError.missing(type: "DependenciesTests.Greeter", path: ["DependenciesTests.Store"])
        ) {
            try container.resolve((any Store).self)
        }
    }

    @Test("a factory may resolve other dependencies (re-entrant, no deadlock)")
    func factoriesResolveOthers() throws {
        let container = DependencyContainer()
        container.register((any Greeter).self) { _ in FixedGreeter(word: "xin chào") }
        container.register((any Store).self) { r in GreeterStore(greeter: try r.resolve((any Greeter).self)) }
        #expect(try container.resolve((any Store).self).greeter.greet() == "xin chào")
    }

    @Test("a dependency cycle is a typed error with the cycle's path, not a hang")
    func cycleIsTypedError() {
        let container = DependencyContainer()
        container.register((any A).self) { r in NeedsB(b: try r.resolve((any B).self)) }
        container.register((any B).self) { r in NeedsA(a: try r.resolve((any A).self)) }
        #expect(
            throws: DependencyError.cycle(path: ["DependenciesTests.A", "DependenciesTests.B", "DependenciesTests.A"])
        ) {
            try container.resolve((any A).self)
        }
    }

    @Test("validate lists everything missing at once")
    func validateListsAllMissing() {
        let app = AppDependencies()
        app.register((any Store).self) { r in GreeterStore(greeter: try r.resolve((any Greeter).self)) }
        #expect {
            try app.validate()
        } throws: { error in
            guard case DependencyError.validationFailed(let problems) = error else { return false }
            return Set(problems) == [
                .missing(type: "DependenciesTests.Greeter", path: []),
                .missing(type: "DependenciesTests.Clock", path: []),
                .missing(type: "DependenciesTests.Greeter", path: ["DependenciesTests.Store"]),
            ]
        }
        app.register((any Greeter).self) { _ in EnglishGreeter() }
        app.register((any Clock).self, lifetime: .transient) { _ in CountingClock() }
        #expect(throws: Never.self) { try app.validate() }
    }

    @Test("resolving from many threads while registering is safe and always sees a complete registry")
    func concurrentResolveAndRegister() async throws {
        let container = DependencyContainer()
        container.register((any Greeter).self) { _ in EnglishGreeter() }
        let expected = ObjectIdentifier(try container.resolve((any Greeter).self) as AnyObject)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<200 {
                    container.register((any Clock).self, lifetime: index.isMultiple(of: 2) ? .shared : .transient) {
                        _ in
                        CountingClock()
                    }
                }
            }
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<2_000 {
                        let greeter = try container.resolve((any Greeter).self)
                        #expect(ObjectIdentifier(greeter as AnyObject) == expected)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("1000 concurrent first resolves of a shared registration all get the same instance")
    func concurrentFirstResolveIsOneInstance() async throws {
        let container = DependencyContainer()
        container.register((any Greeter).self) { _ in EnglishGreeter() }
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<1_000 {
                group.addTask { ObjectIdentifier(try container.resolve((any Greeter).self) as AnyObject) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
    }

    @Test("overrides apply inside their scope only, and concurrent scopes do not see each other's")
    func overridesAreScoped() async throws {
        let app = AppDependencies()
        app.register((any Greeter).self) { _ in FixedGreeter(word: "real") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for word in ["one", "two", "three"] {
                group.addTask {
                    try await app.withOverrides {
                        $0.register((any Greeter).self, instance: FixedGreeter(word: word))
                    } operation: {
                        for _ in 0..<100 {
                            let greeter = try app.resolve((any Greeter).self)
                            #expect(greeter.greet() == word)
                            await Task.yield()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try app.resolve((any Greeter).self).greet() == "real")
    }

    @Test("a factory that throws its own error is reported with the type's name")
    func factoryFailureIsWrapped() {
        struct Broken: Error {}
        let container = DependencyContainer()
        container.register((any Greeter).self) { _ -> any Greeter in throw Broken() }
        #expect {
            try container.resolve((any Greeter).self)
        } throws: { error in
            guard case DependencyError.factoryFailed(let type, _) = error else { return false }
            return type == "DependenciesTests.Greeter"
        }
    }
}
