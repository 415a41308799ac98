import Dependencies
import TerminalUI

/// The progress bar of a listing's photo uploads: one bar for all of them, moved by the states a
/// screen publishes while it uploads (each photo counts the same).
struct PhotoUploadBar {
    private let bar: ProgressHandle?
    private let following: Task<Void, Never>

    /// Starts a bar titled for `count` photos (none for `--json` or no photos) that follows the
    /// progress `progress` reads from each of `states`.
    init<State: Sendable>(
        count: Int, in context: AppContext, states: AsyncStream<State>,
        progress: @escaping @Sendable (State) -> PhotoUploadProgress?
    ) {
        let bar =
            context.json || count == 0
            ? nil : context.output.progress(count == 1 ? "Uploading 1 photo" : "Uploading \(count) photos")
        self.bar = bar
        following = Task {
            for await state in states {
                if let uploading = progress(state) { bar?.update(uploading.overall) }
            }
        }
    }

    /// Stops following and leaves the bar's last frame (full when every photo was taken).
    func finish(succeeded: Bool) {
        following.cancel()
        bar?.finish(succeeded: succeeded)
    }
}

extension AppContext {
    /// Says, on standard error, each photo the server did not take (the rest of the work stands).
    func warn(aboutPhotos problems: [String]) {
        for problem in problems { output.problem(problem) }
    }
}
