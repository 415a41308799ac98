import BazaarAPI
import BazaarStorage
import Foundation

/// Group commit for PostgreSQL: plans that arrive while earlier ones are being applied are
/// applied together, as one statement (``PlanStatement``) with one round trip and one commit,
/// as SQLite's writer groups its transactions.
///
/// A plan is applied at once when fewer than `maximumInFlight` statements are running, so an idle
/// server adds no wait; under load the queue fills while statements run, and the next statement
/// takes up to `maximumPlans` of it. Plans that touch the same rows (the same conversation, the
/// same idempotency key: ``StoredWrite/rowKeys``) never share a statement or run in two at once,
/// and keep their order. When a group's statement fails for anything but the database being
/// unreachable, each of its plans is applied again alone, so one plan's error (a deadlock with
/// another replica, a constraint) is its own.
actor PlanGroupCommit {
    /// Applies plans as one statement: for each plan in order, whether its claim (if any) held.
    typealias Apply = @Sendable ([(plan: WritePlan, now: Date)]) async throws -> [Bool]

    private struct Pending {
        let plan: WritePlan
        let now: Date
        let keys: Set<String>
        let continuation: CheckedContinuation<Bool, any Error>
    }

    private let maximumInFlight: Int
    private let maximumPlans: Int
    /// The most plans that may wait for a statement; one more is refused at once
    /// (``StoreError/unavailable(_:)``, 503) rather than queued without end.
    private let maximumWaiting: Int
    private let apply: Apply
    private var queue: [Pending] = []
    private var inFlight = 0
    private var keysInFlight: Set<String> = []

    /// Group commit running at most `maximumInFlight` statements of at most `maximumPlans` plans.
    init(maximumInFlight: Int, maximumPlans: Int, maximumWaiting: Int = 4096, apply: @escaping Apply) {
        self.maximumInFlight = max(1, maximumInFlight)
        self.maximumPlans = max(1, maximumPlans)
        self.maximumWaiting = max(1, maximumWaiting)
        self.apply = apply
    }

    /// How many plans wait for a statement (for tests and metrics).
    var waitingCount: Int { queue.count }

    /// Applies `plan` (with others, when others are waiting) and answers whether its claim held.
    func submit(_ plan: WritePlan, now: Date) async throws -> Bool {
        guard queue.count < maximumWaiting else { throw StoreError.unavailable("too many writes waiting") }
        return try await withCheckedThrowingContinuation { continuation in
            queue.append(Pending(plan: plan, now: now, keys: plan.rowKeys, continuation: continuation))
            startStatements()
        }
    }

    /// Starts statements while there is room and a plan that may run.
    private func startStatements() {
        while inFlight < maximumInFlight, let group = takeGroup() {
            inFlight += 1
            Task { await self.run(group) }
        }
    }

    /// The next group: plans in queue order whose rows no running statement and no earlier
    /// waiting plan touches.
    private func takeGroup() -> [Pending]? {
        var group: [Pending] = []
        var blocked = keysInFlight
        var rest: [Pending] = []
        for pending in queue {
            if group.count < maximumPlans && pending.keys.isDisjoint(with: blocked) {
                group.append(pending)
            } else {
                rest.append(pending)
            }
            // A plan left waiting keeps later plans on its rows waiting too, so they keep their order.
            blocked.formUnion(pending.keys)
        }
        guard !group.isEmpty else { return nil }
        queue = rest
        for pending in group { keysInFlight.formUnion(pending.keys) }
        return group
    }

    private func run(_ group: [Pending]) async {
        let outcomes = await Self.outcomes(of: group.map { ($0.plan, $0.now) }, apply: apply)
        for (pending, outcome) in zip(group, outcomes) {
            pending.continuation.resume(with: outcome)
        }
        inFlight -= 1
        for pending in group { keysInFlight.subtract(pending.keys) }
        startStatements()
    }

    /// Each plan's outcome: from the group's statement, or, when it failed for anything but the
    /// database being unreachable, from applying each plan alone.
    private nonisolated static func outcomes(of plans: [(plan: WritePlan, now: Date)], apply: Apply) async
        -> [Result<Bool, any Error>]
    {
        do {
            let claimed = try await apply(plans)
            guard claimed.count == plans.count else {
                throw StoreError.corrupt("a group of \(plans.count) plans answered \(claimed.count) outcomes")
            }
            return claimed.map { .success($0) }
        } catch {
            if plans.count == 1 || error is StoreError { return plans.map { _ in .failure(error) } }
        }
        var outcomes: [Result<Bool, any Error>] = []
        for plan in plans {
            do {
                outcomes.append(.success(try await apply([plan]).first ?? false))
            } catch {
                outcomes.append(.failure(error))
            }
        }
        return outcomes
    }
}

extension WritePlan {
    /// The rows this plan writes that another plan could write too: two plans sharing one are
    /// never applied in one statement or at once by ``PlanGroupCommit``.
    var rowKeys: Set<String> {
        var keys: Set<String> = []
        for write in writes {
            switch write {
            case .refuseIfBlocked: break  // reads only
            case .claim(let claim): keys.insert("claim:\(claim.owner):\(claim.key)")
            case .appendMessage(let message): keys.insert("conversation:\(message.conversationId)")
            case .notify, .publish: break  // new rows with new ids
            case .expectProduct(let id, _): keys.insert("product:\(id)")
            case .saveProduct(let record): keys.insert("product:\(record.product.id)")
            case .deleteProduct(let id): keys.insert("product:\(id)")
            case .bumpProduct(let id, _): keys.insert("product:\(id)")
            case .saveOffer(let offer): keys.insert("offer:\(offer.id)")
            case .saveFavourite(_, let productId), .removeFavourite(_, let productId):
                keys.insert("product:\(productId)")
            case .saveReview(let review): keys.insert("user:\(review.subjectId)")
            case .saveReport(let stored): keys.insert("report:\(stored.report.id)")
            case .recordModeration: break  // a new row with a new id
            case .expectReportOpen(let id): keys.insert("report:\(id)")
            case .removeMessage(let id): keys.insert("message:\(id)")
            case .suspendUser(let id): keys.insert("user:\(id)")
            case .attachPhotos(let ids, _, _, _): keys.formUnion(ids.map { "attachment:\($0)" })
            }
        }
        return keys
    }
}
