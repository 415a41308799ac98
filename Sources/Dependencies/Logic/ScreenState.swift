/// The three states every screen moves through (seed 002's logic-controller states): a renderer
/// draws exactly one of them and holds no logic of its own.
public enum ScreenState<Content: Sendable & Equatable>: Sendable, Equatable {
    /// Work is under way and nothing is ready to show yet (the renderer shows its loading view).
    case loading
    /// The content to draw.
    case presenting(Content)
    /// What went wrong and what to do next.
    case failed(ScreenError)

    /// The content, when presenting.
    public var content: Content? {
        if case .presenting(let content) = self { content } else { nil }
    }

    /// The error, when failed.
    public var error: ScreenError? {
        if case .failed(let error) = self { error } else { nil }
    }
}

/// Receives each state a logic controller moves to (the seeds' `then:` handlers).
public typealias StateHandler<State> = @Sendable (State) -> Void
