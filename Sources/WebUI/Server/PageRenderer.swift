import Mustache

/// Renders the typed view models through the templates; every value is escaped by swift-mustache,
/// in text and in attributes.
struct PageRenderer: Sendable {
    private let library: MustacheLibrary

    /// Parses every template once.
    init() throws {
        var library = MustacheLibrary()
        let templates: [(String, String)] = [
            ("layout", LayoutTemplates.layout), ("unreadBadge", LayoutTemplates.unreadBadge),
            ("error", LayoutTemplates.error),
            ("signin", AccountTemplates.signin),
            ("products", ProductTemplates.products), ("product", ProductTemplates.product),
            ("sell", ProductTemplates.sell), ("productFields", ProductTemplates.productFields),
            ("productCard", ProductTemplates.productCard),
            ("listing", ListingTemplates.listing), ("seller", SellerTemplates.seller),
            ("reviewForm", SellerTemplates.reviewForm),
            ("conversations", ChatTemplates.conversations), ("conversationList", ChatTemplates.conversationList),
            ("conversation", ChatTemplates.conversation), ("messageList", ChatTemplates.messageList),
            ("offerForm", ChatTemplates.offerForm),
            ("notifications", AccountPagesTemplates.notifications),
            ("notificationList", AccountPagesTemplates.notificationList), ("profile", AccountPagesTemplates.profile),
            ("saved", SavedTemplates.saved),
            ("account", SettingsTemplates.account), ("accountDeleted", SettingsTemplates.accountDeleted),
            ("report", TrustTemplates.report), ("moderation", TrustTemplates.moderation),
            ("moderationReport", TrustTemplates.moderationReport),
        ]
        for (name, text) in templates { try library.register(text, named: name) }
        self.library = library
    }

    /// `view` through the template `name` (a programming error if the template is missing).
    func render(_ view: Any, _ name: String) -> String {
        library.render(view, withTemplate: name) ?? "<!-- no template \(name) -->"
    }
}
