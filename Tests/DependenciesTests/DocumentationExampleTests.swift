import Dependencies
import Testing

// The code of Dependencies.docc's article, verbatim. scripts/check-doc-examples.py fails when an
// article's code is not found here.

protocol GreetingModule: Sendable {
    func greeting(for name: String) -> String
}

struct EnglishGreetings: GreetingModule {
    func greeting(for name: String) -> String { "Hello, \(name)!" }
}

enum CounterAction: Sendable {
    case increment
}

actor CounterLogic: LogicController {
    private let broadcast = StateBroadcast(0)

    func send(_ action: CounterAction) async -> Int {
        switch action {
        case .increment: broadcast.publish(broadcast.current + 1)
        }
    }

    func states() async -> AsyncStream<Int> {
        broadcast.subscribe(keeping: self)
    }
}

@Suite("The DocC article's code, run")
struct DocumentationExampleTests {
    @Test("Modules, logic controllers and the dependency manager")
    func modulesAndLogic() async throws {
        let container = DependencyContainer()
        container.register((any GreetingModule).self) { _ in EnglishGreetings() }
        try container.validate(required: [(any GreetingModule).self])
        let greetings = try container.resolve((any GreetingModule).self)
        #expect(greetings.greeting(for: "Ada") == "Hello, Ada!")

        let logic = CounterLogic()
        let states = await logic.states()
        #expect(await logic.send(.increment) == 1)
        #expect(await logic.send(.increment) == 2)
        var seen: [Int] = []
        for await state in states {
            seen.append(state)
            if state == 2 { break }
        }
        #expect(seen == [0, 1, 2])
    }
}
