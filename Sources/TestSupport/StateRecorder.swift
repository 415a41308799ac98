import Dependencies
import Synchronization

/// Every state a logic controller publishes while an action runs, for tests of what a renderer
/// would see along the way (the cached profile before the fresh one, upload progress).
public enum StateRecorder {
    /// Sends `action` to `logic` while watching its states; returns the action's final state and
    /// every state published from the subscription on (the first is the state before the action).
    public static func record<Logic: LogicController>(_ logic: Logic, _ action: Logic.Action) async
        -> (final: Logic.State, seen: [Logic.State])
    {
        let seen = Mutex([Logic.State]())
        let states = await logic.states()
        let (ended, endedContinuation) = AsyncStream.makeStream(of: Void.self)
        let watcher = Task {
            for await state in states { seen.withLock { $0.append(state) } }
            endedContinuation.finish()
        }
        let final = await logic.send(action)
        // The final state is the last one published; wait until the watcher has seen it.
        while seen.withLock({ $0.last != final }) { try? await Task.sleep(for: .milliseconds(1)) }
        watcher.cancel()
        for await _ in ended {}
        return (final, seen.withLock { $0 })
    }
}
