import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import TestSupport
import Testing

@testable import BazaarPostgres

/// The plan statements PostgreSQL keeps prepared: one type (so one prepared statement) per
/// registered text, a bounded registry, and sends through the prepared statement that keep their
/// meaning once PostgreSQL has switched to its generic plan.
@Suite("PostgreSQL plan statements kept prepared")
struct PlanShapesTests {
    @Test func everyShapeNumberIsATypeOfItsOwnThatSpellsIt() {
        let count = 2 * PlanShapes.capacity + 3
        let types = (0..<count).map(PlanShapes.statementType)
        #expect(types.map { $0.number } == Array(0..<count))
        #expect(Set(types.map { ObjectIdentifier($0) }).count == count)
    }

    @Test func aTextKeepsItsNumberAndNewTextsStopAtTheCapacity() {
        let shapes = PlanShapes()
        #expect(shapes.number(for: "first", plans: 1) == 0)
        #expect(shapes.number(for: "second", plans: 2) == 1)
        #expect(shapes.number(for: "first", plans: 1) == 0)
        #expect(shapes.text(1) == "second")
        for index in 2..<PlanShapes.capacity {
            #expect(shapes.number(for: "text \(index)", plans: 1) == index)
        }
        #expect(shapes.number(for: "one too many", plans: 1) == nil)
        #expect(shapes.number(for: "second", plans: 2) == 1, "a registered text keeps its number when full")
        #expect(shapes.count == PlanShapes.capacity)
    }

    @Test func theTextOfALargeGroupRunsUnnamed() {
        let shapes = PlanShapes()
        #expect(shapes.number(for: "a large group", plans: PlanShapes.largestPreparedGroup + 1) == nil)
        #expect(shapes.number(for: "a small group", plans: PlanShapes.largestPreparedGroup) == 0)
        #expect(shapes.count == 1)
    }

    /// PostgreSQL plans a prepared statement afresh for its first five runs and may keep a
    /// generic plan from the sixth: twelve sends of one shape cross that line, and a key sent
    /// again after them is still found taken.
    @Test(
        .enabled(if: PostgresTestDatabase.isAvailable, Comment(rawValue: PostgresTestDatabase.skipReason)))
    func sendsOfOneShapeKeepTheirMeaningPastPostgreSQLsSwitchToAGenericPlan() async throws {
        try await StorageKind.postgres.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let conversation = try await fixtures.conversation(ada, bob)
            var sent: [Message] = []
            for index in 0..<12 {
                let pending = fixtures.newMessage("message \(index)", in: conversation, from: ada, key: "key-\(index)")
                guard case .created(let message) = try await fixtures.send(pending) else {
                    Issue.record("send \(index) was not created")
                    return
                }
                sent.append(message)
            }
            let again = fixtures.newMessage("message 0", in: conversation, from: ada, key: "key-0")
            guard case .replayed(let replayed) = try await fixtures.send(again) else {
                Issue.record("a key sent twice was not replayed")
                return
            }
            #expect(replayed.id == sent[0].id)
            let page = try await store.messages(
                conversationId: conversation.id, viewerId: ada.id, before: nil, limit: 50)
            #expect(page?.items.map(\.id) == sent.reversed().map(\.id))
            #expect(PlanShapes.shared.count > 0, "the sends ran as a prepared statement")
        }
    }
}
