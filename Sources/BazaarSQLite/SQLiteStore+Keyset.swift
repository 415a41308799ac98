import BazaarStorage
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
        // Mapped as the cursor steps: a row read from the statement finds its columns by name in
        // a table built once per query, where a copied row (`fetchAll`) lower-cases every column
        // name on every lookup (`String.lowercased` was 1.2% of the load run's mix).
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        var items: [Item] = []
        items.reserveCapacity(limit)
        var lastSeq: Int64?
        while let row = try rows.next() {
            guard items.count < limit else { return Slice(items: items, next: lastSeq) }
            items.append(try map(row))
            lastSeq = try row.decode(Int64.self, forColumn: "seq")
        }
        return Slice(items: items, next: nil)
    }
}
