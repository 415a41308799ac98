import BazaarAPI
import BazaarStorage
import Foundation

/// Reporting a person, a listing or a message to the moderators, written once for every storage
/// engine.
///
/// A member reports what they can see: a user with an account, a listed product, or a message of
/// a conversation they are in (anything else is 404, as for what does not exist), never their
/// own (422). The note is at most 1000 characters. Reporting the same subject again while the
/// first report is open answers that report (`existing`) and stores nothing, also when two
/// arrive at once (the open reports' unique index decides). Each report costs one of the
/// reporter's ``QuotaAction/report`` quota.
public struct ReportService: Sendable {
    let store: any BazaarStore
    let quotas: QuotaLimiter
    let clock: DomainClock

    /// A service over `store`, charging `quotas`, on `clock`.
    package init(store: any BazaarStore, quotas: QuotaLimiter, clock: DomainClock) {
        self.store = store
        self.quotas = quotas
        self.clock = clock
    }

    /// What a report answered.
    public enum Made: Sendable, Equatable {
        /// A new report (201).
        case created(Report)
        /// The reporter's open report of the same subject (200).
        case existing(Report)
    }

    /// Reports `request`'s subject as `reporterId`.
    public func report(_ request: CreateReportRequest, by reporterId: String) async throws -> Made {
        if let note = request.note { try Validation.length(note, field: "note", InputRules.reportNote) }
        let subjectUserId = try await owner(of: request.subjectType, request.subjectId, seenBy: reporterId)
        guard subjectUserId != reporterId else {
            throw DomainError.unprocessable(
                code: "own_subject", message: "You cannot report yourself or what is yours.")
        }
        if let open = try await store.openReport(
            by: reporterId, of: request.subjectType, subjectId: request.subjectId)
        {
            return .existing(open.report)
        }
        try quotas.charge(.report, by: reporterId)
        let report = Report(
            id: clock.newId(), subjectType: request.subjectType, subjectId: request.subjectId, reason: request.reason,
            note: request.note.flatMap { $0.isEmpty ? nil : $0 }, status: .open, action: nil, createdAt: clock.now())
        let stored = StoredReport(report: report, reporterId: reporterId, subjectUserId: subjectUserId)
        do {
            _ = try await store.apply(WritePlan([.saveReport(stored)]), now: report.createdAt)
            return .created(report)
        } catch StoreError.conflict {
            // The same reporter's report of it arrived first, at the same moment.
            quotas.refund(.report, by: reporterId)
            guard
                let open = try await store.openReport(
                    by: reporterId, of: request.subjectType, subjectId: request.subjectId)
            else { throw StoreError.corrupt("an open report's twin is missing") }
            return .existing(open.report)
        }
    }

    /// The reports `reporterId` made, newest first, with their outcomes.
    public func reports(by reporterId: String, before position: Int64?, limit: Int) async throws -> Slice<Report> {
        try await store.reports(by: reporterId, before: position, limit: limit)
    }

    /// Whom a report of this subject is against, when `viewerId` can see the subject; 404 otherwise.
    private func owner(of type: ReportSubjectType, _ id: String, seenBy viewerId: String) async throws -> String {
        switch type {
        case .user:
            guard Validation.isId(id), try await store.existingUser(id: id) != nil else {
                throw DomainError.notFound("The user")
            }
            return id
        case .product:
            guard Validation.isId(id), let product = try await store.product(id: id) else {
                throw DomainError.notFound("The product")
            }
            return product.sellerId
        case .message:
            guard Validation.isId(id), let message = try await store.message(id: id),
                try await store.conversationMembers(id: message.conversationId)?.other(than: viewerId) != nil
            else { throw DomainError.notFound("The message") }
            return message.senderId
        }
    }
}
