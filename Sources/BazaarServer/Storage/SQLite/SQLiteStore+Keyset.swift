import GRDB

extension SQLiteStore {
    /// One page of `table`'s rows where `column = value`, newest first by `seq`, before `position`:
    /// keyset pagination (no OFFSET), so rows added while paging never shift a page.
    ///
    /// `table` and `column` are this file's own constants, never input; the values are bound.
    static func newestFirst<Item: Sendable>(
        _ db: Database, table: String, where column: String, equals value: String, before position: Int64?,
        limit: Int, map: (Row) throws -> Item
    ) throws -> Slice<Item> {
        var sql = "SELECT * FROM \(table) WHERE \(column) = ?"
        var arguments: StatementArguments = [value]
        if let position {
            sql += " AND seq < ?"
            arguments += [position]
        }
        sql += " ORDER BY seq DESC LIMIT ?"
        arguments += [limit + 1]
        let rows = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
        let page = Array(rows.prefix(limit))
        let next: Int64? = rows.count > limit ? try page.last?.decode(Int64.self, forColumn: "seq") : nil
        return Slice(items: try page.map(map), next: next)
    }
}
