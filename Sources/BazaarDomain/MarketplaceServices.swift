import BazaarStorage
import Foundation

/// Every rule service of the marketplace over one store, made once per server (or per test).
///
/// Routes call these and only translate: they parse a request into a call and a result (or a
/// ``DomainError``) into a response. Each service decides validation, quotas, idempotency, what
/// is stored, what is published and who is told; the store applies its ``WritePlan``s.
public struct MarketplaceServices: Sendable {
    /// Sending messages.
    public let messages: MessageService
    /// Uploading chat photos.
    public let attachments: AttachmentService
    /// Registering, signing in, changing the password and deleting an account.
    public let accounts: AccountService
    /// Opening conversations and marking them read.
    public let conversations: ConversationService
    /// Blocking other users.
    public let blocks: BlockService
    /// Reports of users, listings and messages.
    public let reports: ReportService
    /// The moderators' queue and actions.
    public let moderation: ModerationService
    /// One's own signed-in sessions.
    public let sessions: SessionService
    /// Everything of an account, for its owner.
    public let exports: AccountExportService
    /// Listing, editing, changing the status of and taking down products.
    public let listings: ListingService
    /// Making and deciding offers.
    public let offers: OfferService
    /// Saving products.
    public let favourites: FavouriteService
    /// Reviews after a sale.
    public let reviews: ReviewService
    /// The per-user write quotas and per-address read quotas the services charge.
    package let quotas: QuotaLimiter

    /// The services over `store`, announcing on `events`, under `quotas`, hashing passwords with
    /// `hasher` and counting failed password checks in `throttle`, on `clock`.
    package init(
        store: any BazaarStore, events: any LiveEventBus, quotas: QuotaLimiter, hasher: PasswordHasher,
        throttle: any LoginThrottling, clock: DomainClock
    ) {
        self.quotas = quotas
        attachments = AttachmentService(store: store, clock: clock)
        messages = MessageService(store: store, quotas: quotas, attachments: attachments, clock: clock)
        accounts = AccountService(store: store, events: events, hasher: hasher, throttle: throttle, clock: clock)
        conversations = ConversationService(store: store, events: events, quotas: quotas, clock: clock)
        blocks = BlockService(store: store, quotas: quotas, clock: clock)
        reports = ReportService(store: store, quotas: quotas, clock: clock)
        moderation = ModerationService(store: store, events: events, clock: clock)
        sessions = SessionService(store: store, quotas: quotas, clock: clock)
        exports = AccountExportService(store: store, quotas: quotas)
        listings = ListingService(store: store, events: events, quotas: quotas, clock: clock)
        offers = OfferService(store: store, events: events, quotas: quotas, clock: clock)
        favourites = FavouriteService(store: store, events: events, quotas: quotas, clock: clock)
        reviews = ReviewService(store: store, quotas: quotas, clock: clock)
    }
}
