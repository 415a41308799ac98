import BazaarStorage
import PostgresNIO

/// Reads a row's columns in order, each decoded to the type asked for at the call site.
///
/// `PostgresRow.decode((A, B, …).self)` is generic over a parameter pack, which the compiler
/// cannot specialise: every row looks up the generic metadata of each column's decoding at run
/// time. Under the PostgreSQL mix those look-ups and the decoding around them took 4.9% of the
/// server's CPU, most of it in history pages (fifty ten-column rows each). Read one cell at a
/// time, each decoding is specialised for its type.
struct ColumnReader {
    private var cells: PostgresRow.Iterator

    /// A reader at the row's first column.
    init(_ row: PostgresRow) {
        cells = row.makeIterator()
    }

    /// The next column, decoded as `Value`.
    mutating func next<Value: PostgresDecodable>(_: Value.Type = Value.self) throws -> Value {
        guard let cell = cells.next() else { throw StoreError.corrupt("a row has fewer columns than were read") }
        return try cell.decode(Value.self)
    }
}
