/// How fast one user may write and one client address may read, each as a count per minute
/// that may also be spent at once (a burst); `nil` means no limit. Past a limit the server
/// answers `429` with `Retry-After`. The defaults are far above what a person using the app
/// does, and each replica counts on its own (with N replicas behind a balancer, a client may
/// reach N times the figure).
public struct QuotaPolicy: Sendable, Equatable {
    /// Messages one user may send per minute.
    public var messagesPerMinute: Int?
    /// Conversations one user may start per minute.
    public var conversationsPerMinute: Int?
    /// Products one user may list per minute.
    public var productsPerMinute: Int?
    /// Profile photos one user may upload per minute.
    public var photosPerMinute: Int?
    /// Reads (`GET`s other than `/health` and `/metrics`) one client address may make per minute.
    public var readsPerMinutePerAddress: Int?
    /// Accounts one client address may register per minute.
    public var registrationsPerMinutePerAddress: Int?
    /// Sign-ins (failed or not) one client address may attempt per minute.
    public var signInsPerMinutePerAddress: Int?
    /// Token refreshes one client address may make per minute (each stores a row).
    public var refreshesPerMinutePerAddress: Int?
    /// Small edits one user may make per minute: the profile, a product's photo order or a photo
    /// removed, conversations and notifications marked read.
    public var editsPerMinute: Int?
    /// Reports one user may make per minute (a report is a moderator's time).
    public var reportsPerMinute: Int?
    /// Account exports one user may ask for per minute (each reads everything of theirs).
    public var exportsPerMinute: Int?

    /// Makes a policy; every argument has a default no honest use of the app reaches.
    public init(
        messagesPerMinute: Int? = 300, conversationsPerMinute: Int? = 30, productsPerMinute: Int? = 30,
        photosPerMinute: Int? = 30, readsPerMinutePerAddress: Int? = 3000, registrationsPerMinutePerAddress: Int? = 10,
        signInsPerMinutePerAddress: Int? = 60, refreshesPerMinutePerAddress: Int? = 120, editsPerMinute: Int? = 120,
        reportsPerMinute: Int? = 10, exportsPerMinute: Int? = 2
    ) {
        self.messagesPerMinute = messagesPerMinute
        self.conversationsPerMinute = conversationsPerMinute
        self.productsPerMinute = productsPerMinute
        self.photosPerMinute = photosPerMinute
        self.readsPerMinutePerAddress = readsPerMinutePerAddress
        self.registrationsPerMinutePerAddress = registrationsPerMinutePerAddress
        self.signInsPerMinutePerAddress = signInsPerMinutePerAddress
        self.refreshesPerMinutePerAddress = refreshesPerMinutePerAddress
        self.editsPerMinute = editsPerMinute
        self.reportsPerMinute = reportsPerMinute
        self.exportsPerMinute = exportsPerMinute
    }

    /// No quotas at all: for load runs that measure what the server can do.
    public static let unlimited = QuotaPolicy(
        messagesPerMinute: nil, conversationsPerMinute: nil, productsPerMinute: nil, photosPerMinute: nil,
        readsPerMinutePerAddress: nil, registrationsPerMinutePerAddress: nil, signInsPerMinutePerAddress: nil,
        refreshesPerMinutePerAddress: nil, editsPerMinute: nil, reportsPerMinute: nil, exportsPerMinute: nil)

    /// The per-minute limit of `action`.
    package func perMinute(_ action: QuotaAction) -> Int? {
        switch action {
        case .sendMessage: messagesPerMinute
        case .startConversation: conversationsPerMinute
        case .listProduct: productsPerMinute
        case .uploadPhoto: photosPerMinute
        case .read: readsPerMinutePerAddress
        case .register: registrationsPerMinutePerAddress
        case .signIn: signInsPerMinutePerAddress
        case .refresh: refreshesPerMinutePerAddress
        case .edit: editsPerMinute
        case .report: reportsPerMinute
        case .export: exportsPerMinute
        }
    }
}

/// What a quota counts.
public enum QuotaAction: Sendable, Hashable, CaseIterable {
    /// The kinds of action.
    case sendMessage, startConversation, listProduct, uploadPhoto, read, register, signIn, refresh, edit, report, export

    /// How a `429` names it: "Too many message sends".
    public var plural: String {
        switch self {
        case .sendMessage: "message sends"
        case .startConversation: "new conversations"
        case .listProduct: "new product listings"
        case .uploadPhoto: "photo uploads"
        case .read: "requests from this address"
        case .register: "new accounts from this address"
        case .signIn: "sign-ins from this address"
        case .refresh: "token refreshes from this address"
        case .edit: "edits"
        case .report: "reports"
        case .export: "account exports"
        }
    }
}
