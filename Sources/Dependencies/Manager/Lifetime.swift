/// How long a resolved instance lives.
public enum Lifetime: Sendable, Hashable {
    /// One instance, made on first resolve and handed to every later caller.
    case shared
    /// A new instance on every resolve.
    case transient
}
