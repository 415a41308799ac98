/// A screen as a module hands it out (seed 002's view controller, as a value): the logic a
/// renderer drives and the title it shows.
public struct Screen<Logic: Sendable>: Sendable {
    /// The screen's title.
    public var title: String
    /// The logic the renderer drives.
    public var logic: Logic

    /// Makes a screen.
    public init(title: String, logic: Logic) {
        self.title = title
        self.logic = logic
    }
}
