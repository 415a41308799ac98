import BazaarAPI
import BazaarStorage
import Foundation

/// The moderators' queue and what they do about a report, written once for every storage engine.
///
/// Only a moderator (named by the operator, read from the database at every request, so naming
/// or removing one holds at once) reads the queue or acts; to anyone else it does not exist
/// (404). A report is resolved once (`409 report_resolved` after): `dismiss` does nothing else,
/// `remove_product` takes the reported listing down as its seller would (its open offers
/// declined in their conversations), `remove_message` replaces the reported message's text for
/// both members, and `suspend_user` suspends whom the report is against (their sessions revoked
/// and sockets closed on every replica, their listings hidden, their sign-ins refused). An
/// action fits its subject (`422 invalid_action`: a listing is removed only on a listing's
/// report, a message on a message's). Every other open report of the same subject is resolved
/// with it; each action is recorded (who, when, what, why), and every reporter is notified
/// (`report.resolved`).
public struct ModerationService: Sendable {
    let store: any BazaarStore
    let events: any LiveEventBus
    let clock: DomainClock
    private var timeline: OfferTimeline { OfferTimeline(clock: clock) }

    /// A service over `store`, announcing on `events`, on `clock`.
    package init(store: any BazaarStore, events: any LiveEventBus, clock: DomainClock) {
        self.store = store
        self.events = events
        self.clock = clock
    }

    /// How many messages on either side of a reported one a moderator reads with it.
    public static let messageContext = 5

    /// A page of reports in `status`, oldest first, for a moderator.
    public func queue(_ status: ReportStatus, after position: Int64?, limit: Int, by callerId: String) async throws
        -> Slice<Report>
    {
        try await requireModerator(callerId)
        let slice = try await store.reports(status: status, after: position, limit: limit)
        return Slice(items: slice.items.map(\.report), next: slice.next)
    }

    /// One report with its subject in context, for a moderator.
    public func item(_ reportId: String, by callerId: String) async throws -> ModerationItem {
        try await requireModerator(callerId)
        guard let stored = try await store.report(id: reportId) else { throw DomainError.notFound("The report") }
        let report = stored.report
        async let reporter = store.user(id: stored.reporterId)
        async let subjectUser = store.user(id: stored.subjectUserId)
        async let records = store.moderationRecords(reportId: reportId)
        var item = ModerationItem(
            report: report,
            reporter: try await reporter?.user ?? .deleted(id: stored.reporterId, createdAt: report.createdAt),
            subjectUser: try await subjectUser?.user ?? .deleted(id: stored.subjectUserId, createdAt: report.createdAt),
            resolution: try await records.last?.record)
        switch report.subjectType {
        case .user: break
        case .product: item.product = try await store.product(id: report.subjectId)
        case .message: item.messages = try await store.messages(around: report.subjectId, count: Self.messageContext)
        }
        return item
    }

    /// Resolves a report with `action` (and the moderator's `note`, at most 1000 characters).
    public func resolve(_ reportId: String, with action: ModerationAction, note: String?, by callerId: String)
        async throws -> Report
    {
        try await requireModerator(callerId)
        if let note { try Validation.length(note, field: "note", InputRules.reportNote) }
        for _ in 0..<ListingService.attempts {
            guard let stored = try await store.report(id: reportId) else { throw DomainError.notFound("The report") }
            guard stored.report.status == .open else {
                throw DomainError.conflict(code: "report_resolved", message: "The report was resolved already.")
            }
            let subject = stored.report
            let now = clock.now()
            // Resolved once: another moderator's resolution that commits first makes this one stale.
            var plan = WritePlan([.expectReportOpen(id: reportId)])
            switch action {
            case .dismiss:
                break
            case .removeProduct:
                guard subject.subjectType == .product else { throw Self.invalidAction(action, subject.subjectType) }
                // Already gone (its seller took it down): the report is resolved all the same.
                if let record = try await store.productRecord(id: subject.subjectId) {
                    plan.append(.expectProduct(id: record.product.id, version: record.version))
                    // The declines speak for the seller: nothing of them crosses a block of theirs.
                    var declines = WritePlan()
                    timeline.decline(
                        try await store.openOffers(productId: record.product.id), seller: record.product.sellerId,
                        at: now, to: &declines)
                    for write in try await BlockRule(store: store).shielding(declines, actor: record.product.sellerId)
                        .writes
                    {
                        plan.append(write)
                    }
                    plan.append(.deleteProduct(id: record.product.id))
                }
            case .removeMessage:
                guard subject.subjectType == .message else { throw Self.invalidAction(action, subject.subjectType) }
                plan.append(.removeMessage(id: subject.subjectId))
            case .suspendUser:
                guard stored.subjectUserId != callerId else {
                    throw DomainError.unprocessable(code: "invalid_action", message: "You cannot suspend yourself.")
                }
                plan.append(.suspendUser(id: stored.subjectUserId))
            }
            let cleanNote = note.flatMap { $0.isEmpty ? nil : $0 }
            plan.append(
                .recordModeration(
                    StoredModeration(
                        id: clock.newId(), reportId: reportId, subjectType: subject.subjectType,
                        subjectId: subject.subjectId,
                        record: ModerationRecord(moderatorId: callerId, action: action, note: cleanNote, createdAt: now)
                    )))
            var resolved = subject
            for var twin in try await store.openReports(of: subject.subjectType, subjectId: subject.subjectId) {
                twin.report.status = .resolved
                twin.report.action = action
                twin.report.resolvedAt = now
                if twin.report.id == reportId { resolved = twin.report }
                plan.append(.saveReport(twin))
                let notification = BazaarAPI.Notification(
                    id: clock.newId(), type: NotificationType.reportResolved, read: false, createdAt: now,
                    conversationId: nil, messageId: nil, reportId: twin.report.id)
                plan.append(.notify(userId: twin.reporterId, notification))
                plan.append(.publish(.notificationCreated(notification), to: [twin.reporterId]))
            }
            switch try await store.apply(plan, now: now) {
            case .applied:
                if action == .removeProduct || action == .suspendUser { await events.productsChanged() }
                return resolved
            case .stale:
                continue
            case .claimTaken, .blocked:
                throw StoreError.corrupt("a moderation plan claims no key and checks no block")
            }
        }
        throw DomainError.busy("The listing is changing too often to remove it now.", retryAfter: 1)
    }

    /// Throws 404 unless `callerId` is a moderator whose account is in good standing.
    private func requireModerator(_ callerId: String) async throws {
        guard let record = try await store.user(id: callerId), record.role == .moderator, record.isActive else {
            throw DomainError.notFound("The page")
        }
    }

    private static func invalidAction(_ action: ModerationAction, _ subject: ReportSubjectType) -> DomainError {
        .unprocessable(
            code: "invalid_action", message: "\(action.rawValue) does not apply to a report of a \(subject.rawValue).")
    }
}
