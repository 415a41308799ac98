import BazaarAPI
import BazaarDomain
import BazaarStorage
import Foundation
import TestSupport
import Testing

/// A send's block check is decided in the send's own transaction, on both engines: no block that
/// committed first lets a message through, a refused send writes nothing (not even its key), and
/// sends between others going through in the same group commit are untouched.
@Suite("The block check of a send, in its transaction")
struct BlockCheckTests {
    @Test(arguments: StorageKind.available)
    func aBlockedSendWritesNothingAndItsNeighboursInTheGroupAreWritten(storage: StorageKind) async throws {
        try await storage.withStore { store in
            let fixtures = StoreFixtures(store)
            let ada = try await fixtures.user("ada")
            let bob = try await fixtures.user("bob")
            let cyd = try await fixtures.user("cyd")
            let blockedConversation = try await fixtures.conversation(ada, bob)
            let openConversation = try await fixtures.conversation(ada, cyd)
            try await store.saveBlock(blockerId: bob.id, blockedId: ada.id, now: fixtures.now)

            // At once, so a store that groups plans puts them in one statement.
            let sends = (0..<10).map { index in
                index.isMultiple(of: 2)
                    ? fixtures.newMessage("blocked \(index)", in: blockedConversation, from: ada, key: "b\(index)")
                    : fixtures.newMessage("open \(index)", in: openConversation, from: ada, key: "o\(index)")
            }
            let outcomes = await withTaskGroup(of: (String, Bool).self) { group in
                for send in sends {
                    group.addTask {
                        do {
                            _ = try await fixtures.send(send)
                            return (send.key, true)
                        } catch let error as DomainError {
                            #expect(error == .blocked, "\(error)")
                            return (send.key, false)
                        } catch {
                            Issue.record("\(error)")
                            return (send.key, false)
                        }
                    }
                }
                return await group.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
            }
            for send in sends { #expect(outcomes[send.key] == send.key.hasPrefix("o"), "\(send.key)") }
            #expect(try await store.idempotencyResult(owner: ada.id, key: "b0") == nil, "a refused send claims no key")
            let blockedHistory = try await store.messages(
                conversationId: blockedConversation.id, viewerId: ada.id, before: nil, limit: 50)
            #expect(blockedHistory?.items.isEmpty == true)
            let openHistory = try await store.messages(
                conversationId: openConversation.id, viewerId: ada.id, before: nil, limit: 50)
            #expect(openHistory?.items.count == 5)

            // Unblocked, the same key sends: nothing of the refused attempt remained.
            try await store.removeBlock(blockerId: bob.id, blockedId: ada.id)
            guard case .created = try await fixtures.send(sends[0]) else {
                Issue.record("the send after the unblock was not new")
                return
            }
        }
    }
}
