import BazaarAPI

/// What the frame around every page shows: who is signed in, the form token, where live updates
/// come from, a one-line notice.
struct NavigationView: Sendable {
    /// The signed-in person, as the navigation names them.
    struct Person: Sendable {
        var displayName: String
        /// Whether they may work the report queue (the operator named them).
        var isModerator: Bool
    }

    var user: Person?
    var csrf: String
    /// The Server-Sent Events URL for this page, if it has live parts.
    var live: String?
    var notice: String?
    var unread: Int?

    init(user: User?, csrf: String, live: String? = nil, notice: String? = nil) {
        self.user = user.map { Person(displayName: $0.displayName, isModerator: $0.role == .moderator) }
        self.csrf = csrf
        self.live = live
        self.notice = notice
    }
}

/// A failed screen: what went wrong and what to do next.
struct ErrorView: Sendable {
    var title: String
    var nav: NavigationView
    var heading: String
    var message: String
    var suggestion: String
}

/// The sign-in and register page.
struct SignInView: Sendable {
    var title = "Sign in"
    var nav: NavigationView
    var error: String?
    var username: String
}
