import BazaarAPI
import BazaarStorage
import Foundation
import GRDB

extension SQLiteStore {
    // MARK: Blocks

    public func saveBlock(blockerId: String, blockedId: String, now: Date) async throws {
        // Before the write: no check may read "no block" once the block has committed.
        blockParties.add(blockerId, blockedId)
        try await writer.write { db in
            guard
                try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?"),
                    arguments: [blockerId, blockedId]) == nil
            else { return }
            try db.run(
                sql: "INSERT INTO blocks (blocker_id, blocked_id, seq, created_at) VALUES (?, ?, ?, ?)",
                arguments: [blockerId, blockedId, try Self.nextSeq(db, table: .blocks), StoredValues.millis(now)])
        }
    }

    public func removeBlock(blockerId: String, blockedId: String) async throws {
        try await writer.write { db in
            try db.run(
                sql: "DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?", arguments: [blockerId, blockedId])
        }
    }

    public func blockedUsers(by blockerId: String, before position: Int64?, limit: Int) async throws -> Slice<User> {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT b.seq AS block_seq, u.* FROM blocks b JOIN users u ON u.id = b.blocked_id
                        WHERE b.blocker_id = ? AND b.seq < ? ORDER BY b.seq DESC LIMIT ?
                        """),
                arguments: [blockerId, position ?? Int64.max, limit + 1])
            return try Slice(fetched: rows, limit: limit, item: { try Self.userRecord($0).user }) { row in
                try row.decode(Int64.self, forColumn: "block_seq")
            }
        }
    }

    public func blockedPeers(of userId: String, among others: [String]) async throws -> Set<String> {
        // Who is party to no block has no one blocked either way.
        guard !others.isEmpty, blockParties.mayBeParty(userId) else { return [] }
        return try await pool.read { db in
            var peers: Set<String> = []
            for other in Set(others) where try Self.isBlocked(db, userId, other) { peers.insert(other) }
            return peers
        }
    }

    /// Whether either of the two blocked the other.
    static func isBlocked(_ db: Database, _ first: String, _ second: String) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?)
                        OR EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?)
                    """),
            arguments: [first, second, second, first]) ?? false
    }

    /// Whether a plan's ``StoredWrite/refuseIfBlocked(_:_:)`` refuses it: a block between the two,
    /// or the second's account deleted.
    static func isClosed(_ db: Database, _ first: String, _ second: String) throws -> Bool {
        if try isBlocked(db, first, second) { return true }
        return try Int.fetchOne(
            db.cachedStatement(sql: "SELECT 1 FROM users WHERE id = ? AND deleted_at IS NOT NULL"), arguments: [second])
            != nil
    }

    // MARK: Reports

    public func report(id: String) async throws -> StoredReport? {
        try await pool.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM reports WHERE id = ?"), arguments: [id]).map(
                Self.storedReport)
        }
    }

    public func openReport(by reporterId: String, of subjectType: ReportSubjectType, subjectId: String) async throws
        -> StoredReport?
    {
        try await pool.read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM reports
                        WHERE reporter_id = ? AND subject_type = ? AND subject_id = ? AND status = 'open'
                        """),
                arguments: [reporterId, subjectType.rawValue, subjectId]
            ).map(Self.storedReport)
        }
    }

    public func openReports(of subjectType: ReportSubjectType, subjectId: String) async throws -> [StoredReport] {
        try await pool.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM reports WHERE subject_type = ? AND subject_id = ? AND status = 'open' ORDER BY seq
                        """),
                arguments: [subjectType.rawValue, subjectId]
            ).map(Self.storedReport)
        }
    }

    public func reports(by reporterId: String, before position: Int64?, limit: Int) async throws -> Slice<Report> {
        try await pool.read { db in
            try Self.newestFirst(
                db, table: "reports", where: "reporter_id", equals: reporterId, before: position, limit: limit
            ) { try Self.storedReport($0).report }
        }
    }

    public func reports(status: ReportStatus, after position: Int64?, limit: Int) async throws -> Slice<StoredReport> {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM reports WHERE status = ? AND seq > ? ORDER BY seq LIMIT ?"),
                arguments: [status.rawValue, position ?? 0, limit + 1])
            return try Slice(fetched: rows, limit: limit, item: Self.storedReport) { row in
                try row.decode(Int64.self, forColumn: "seq")
            }
        }
    }

    public func moderationRecords(reportId: String) async throws -> [StoredModeration] {
        try await pool.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM moderation_actions WHERE report_id = ? ORDER BY seq"),
                arguments: [reportId]
            ).map { row in
                StoredModeration(
                    id: try row.decode(String.self, forColumn: "id"),
                    reportId: try row.decode(String.self, forColumn: "report_id"),
                    subjectType: try StoredValues.decode(
                        row.decode(String.self, forColumn: "subject_type"), as: "a report's subject type"),
                    subjectId: try row.decode(String.self, forColumn: "subject_id"),
                    record: ModerationRecord(
                        moderatorId: try row.decode(String.self, forColumn: "moderator_id"),
                        action: try StoredValues.decode(
                            row.decode(String.self, forColumn: "action"), as: "a moderation action"),
                        note: try row.decode(String?.self, forColumn: "note"),
                        createdAt: StoredValues.date(try row.decode(Int64.self, forColumn: "created_at"))))
            }
        }
    }

    public func messages(around messageId: String, count: Int) async throws -> [Message] {
        try await pool.read { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT conversation_id, seq FROM messages WHERE id = ?"),
                    arguments: [messageId])
            else { return [] }
            let conversationId = try row.decode(String.self, forColumn: "conversation_id")
            let seq = try row.decode(Int64.self, forColumn: "seq")
            let before = try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT * FROM messages WHERE conversation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?"),
                arguments: [conversationId, seq, count]
            ).map(Self.message)
            let rest = try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT * FROM messages WHERE conversation_id = ? AND seq >= ? ORDER BY seq LIMIT ?"),
                arguments: [conversationId, seq, count + 1]
            ).map(Self.message)
            return before.reversed() + rest
        }
    }

    static func storedReport(_ row: Row) throws -> StoredReport {
        let report = Report(
            id: try row.decode(String.self, forColumn: "id"),
            subjectType: try StoredValues.decode(
                row.decode(String.self, forColumn: "subject_type"), as: "a report's subject type"),
            subjectId: try row.decode(String.self, forColumn: "subject_id"),
            reason: try StoredValues.decode(row.decode(String.self, forColumn: "reason"), as: "a report's reason"),
            note: try row.decode(String?.self, forColumn: "note"),
            status: try StoredValues.decode(row.decode(String.self, forColumn: "status"), as: "a report's status"),
            action: try row.decode(String?.self, forColumn: "action").map {
                try StoredValues.decode($0, as: "a moderation action")
            },
            createdAt: StoredValues.date(try row.decode(Int64.self, forColumn: "created_at")),
            resolvedAt: try row.decode(Int64?.self, forColumn: "resolved_at").map(StoredValues.date))
        return StoredReport(
            report: report, reporterId: try row.decode(String.self, forColumn: "reporter_id"),
            subjectUserId: try row.decode(String.self, forColumn: "subject_user_id"))
    }
}
