import BazaarAPI
import BazaarStorage
import Foundation
import PostgresNIO

extension PostgresStore {
    // MARK: Blocks

    public func saveBlock(blockerId: String, blockedId: String, now: Date) async throws {
        try await database.rows(
            """
            INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (\(blockerId), \(blockedId), \(StoredValues.millis(now)))
            ON CONFLICT DO NOTHING
            """)
    }

    public func removeBlock(blockerId: String, blockedId: String) async throws {
        try await database.rows("DELETE FROM blocks WHERE blocker_id = \(blockerId) AND blocked_id = \(blockedId)")
    }

    public func blockedUsers(by blockerId: String, before position: Int64?, limit: Int) async throws -> Slice<User> {
        let rows = try await database.rows(
            """
            SELECT b.seq AS block_seq, u.* FROM blocks b JOIN users u ON u.id = b.blocked_id
            WHERE b.blocker_id = \(blockerId) AND b.seq < \(position ?? Int64.max)
            ORDER BY b.seq DESC LIMIT \(Int64(limit + 1))
            """)
        return try Slice(fetched: rows, limit: limit, item: { try Self.userRecord($0).user }) { row in
            try row.makeRandomAccess()["block_seq"].decode(Int64.self)
        }
    }

    public func blockedPeers(of userId: String, among others: [String]) async throws -> Set<String> {
        guard !others.isEmpty else { return [] }
        let rows = try await database.rows(
            """
            SELECT blocked_id FROM blocks WHERE blocker_id = \(userId) AND blocked_id = ANY(\(others))
            UNION
            SELECT blocker_id FROM blocks WHERE blocked_id = \(userId) AND blocker_id = ANY(\(others))
            """)
        return Set(try rows.map { try $0.decode(String.self) })
    }

    // MARK: Reports

    static let reportColumns = """
        id, seq, reporter_id, subject_type, subject_id, subject_user_id, reason, note, status, action, created_at,
        resolved_at
        """

    public func report(id: String) async throws -> StoredReport? {
        try await database.rows("SELECT \(unescaped: Self.reportColumns) FROM reports WHERE id = \(id)").first.map(
            Self.storedReport)
    }

    public func openReport(by reporterId: String, of subjectType: ReportSubjectType, subjectId: String) async throws
        -> StoredReport?
    {
        try await database.rows(
            """
            SELECT \(unescaped: Self.reportColumns) FROM reports
            WHERE reporter_id = \(reporterId) AND subject_type = \(subjectType.rawValue) AND subject_id = \(subjectId)
              AND status = 'open'
            """
        ).first.map(Self.storedReport)
    }

    public func openReports(of subjectType: ReportSubjectType, subjectId: String) async throws -> [StoredReport] {
        try await database.rows(
            """
            SELECT \(unescaped: Self.reportColumns) FROM reports
            WHERE subject_type = \(subjectType.rawValue) AND subject_id = \(subjectId) AND status = 'open' ORDER BY seq
            """
        ).map(Self.storedReport)
    }

    public func reports(by reporterId: String, before position: Int64?, limit: Int) async throws -> Slice<Report> {
        let rows = try await database.rows(
            """
            SELECT \(unescaped: Self.reportColumns) FROM reports
            WHERE reporter_id = \(reporterId) AND seq < \(position ?? Int64.max) ORDER BY seq DESC LIMIT \(Int64(limit + 1))
            """)
        return try Self.slice(rows, limit: limit) { try Self.storedReport($0).report }
    }

    public func reports(status: ReportStatus, after position: Int64?, limit: Int) async throws -> Slice<StoredReport> {
        let rows = try await database.rows(
            """
            SELECT \(unescaped: Self.reportColumns) FROM reports
            WHERE status = \(status.rawValue) AND seq > \(position ?? 0) ORDER BY seq LIMIT \(Int64(limit + 1))
            """)
        return try Self.slice(rows, limit: limit, map: Self.storedReport)
    }

    public func moderationRecords(reportId: String) async throws -> [StoredModeration] {
        try await database.rows(
            """
            SELECT id, report_id, subject_type, subject_id, moderator_id, action, note, created_at
            FROM moderation_actions WHERE report_id = \(reportId) ORDER BY seq
            """
        ).map { row in
            let (id, reportId, subjectType, subjectId, moderatorId, action, note, createdAt) = try row.decode(
                (String, String, String, String, String, String, String?, Int64).self)
            return StoredModeration(
                id: id, reportId: reportId,
                subjectType: try StoredValues.decode(subjectType, as: "a report's subject type"), subjectId: subjectId,
                record: ModerationRecord(
                    moderatorId: moderatorId, action: try StoredValues.decode(action, as: "a moderation action"),
                    note: note, createdAt: StoredValues.date(createdAt)))
        }
    }

    public func messages(around messageId: String, count: Int) async throws -> [Message] {
        try await database.rows(
            """
            WITH target AS (SELECT conversation_id, seq FROM messages WHERE id = \(messageId))
            SELECT * FROM (
                (SELECT \(unescaped: Self.qualifiedMessageColumns) FROM messages m, target t
                 WHERE m.conversation_id = t.conversation_id AND m.seq < t.seq ORDER BY m.seq DESC LIMIT \(Int64(count)))
                UNION ALL
                (SELECT \(unescaped: Self.qualifiedMessageColumns) FROM messages m, target t
                 WHERE m.conversation_id = t.conversation_id AND m.seq >= t.seq ORDER BY m.seq LIMIT \(Int64(count + 1)))
            ) around ORDER BY seq
            """
        ).map(Self.message)
    }

    /// ``messageColumns`` of the messages table aliased `m`.
    static let qualifiedMessageColumns = messageColumns.split(separator: ",").map {
        "m." + $0.trimmingCharacters(in: .whitespaces)
    }.joined(separator: ", ")

    static func storedReport(_ row: PostgresRow) throws -> StoredReport {
        let cells = row.makeRandomAccess()
        let report = Report(
            id: try cells["id"].decode(String.self),
            subjectType: try StoredValues.decode(
                cells["subject_type"].decode(String.self), as: "a report's subject type"),
            subjectId: try cells["subject_id"].decode(String.self),
            reason: try StoredValues.decode(cells["reason"].decode(String.self), as: "a report's reason"),
            note: try cells["note"].decode(String?.self),
            status: try StoredValues.decode(cells["status"].decode(String.self), as: "a report's status"),
            action: try cells["action"].decode(String?.self).map {
                try StoredValues.decode($0, as: "a moderation action")
            },
            createdAt: StoredValues.date(try cells["created_at"].decode(Int64.self)),
            resolvedAt: try cells["resolved_at"].decode(Int64?.self).map(StoredValues.date))
        return StoredReport(
            report: report, reporterId: try cells["reporter_id"].decode(String.self),
            subjectUserId: try cells["subject_user_id"].decode(String.self))
    }
}
