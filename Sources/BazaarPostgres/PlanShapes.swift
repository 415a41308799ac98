import PostgresNIO
import Synchronization

/// The texts of plan statements (``PlanStatement``) seen often enough to keep prepared, each
/// under a number of its own, so PostgreSQL parses and plans a send once per connection instead
/// of on every call.
///
/// A plan statement's text depends only on the shape of its plans (which writes, how many plans
/// in the group), never on their values, which are bound: a server under a steady load sends a
/// handful of texts over and over. Counted with `pg_stat_statements`, a lone send spent 0.40 ms
/// of PostgreSQL's time planning it beside 0.49 ms running it.
///
/// postgres-nio prepares a statement per connection under its type's name and keeps it for the
/// connection's life. A text is dynamic and a type is not, so each number registered here is a
/// type of its own (``PlanShapeStatement``, generic over a type that spells the number in binary:
/// ``ShapeNumber``); the SQL of that type is the text registered under its number. Registration
/// is append-only, so a number means one text for the life of the process, as the statement
/// prepared under its name on each connection requires.
///
/// Bounded: at most ``capacity`` texts, and only those of groups of at most
/// ``largestPreparedGroup`` plans (larger groups are rare and already share their planning among
/// their plans). Any other text runs unnamed, as before. Each connection keeps at most
/// ``capacity`` prepared statements.
final class PlanShapes: Sendable {
    /// The most texts kept prepared.
    static let capacity = 64
    /// The largest group of plans whose text is kept prepared.
    static let largestPreparedGroup = 4

    private struct Registry {
        var numbers: [String: Int] = [:]
        var texts: [String] = []
    }

    private let registry = Mutex(Registry())

    /// The process's registry (a number must mean one text for every connection of the process).
    static let shared = PlanShapes()

    /// The number registered for `sql`, registering it when there is room; `nil` when the
    /// statement should run unnamed.
    func number(for sql: String, plans: Int) -> Int? {
        guard plans <= Self.largestPreparedGroup else { return nil }
        return registry.withLock { registry in
            if let number = registry.numbers[sql] { return number }
            guard registry.texts.count < Self.capacity else { return nil }
            let number = registry.texts.count
            registry.texts.append(sql)
            registry.numbers[sql] = number
            return number
        }
    }

    /// The text registered under `number`.
    func text(_ number: Int) -> String {
        registry.withLock { $0.texts[number] }
    }

    /// How many texts are registered (for tests).
    var count: Int { registry.withLock { $0.texts.count } }

    /// The statement type of `number`: one distinct type per number.
    static func statementType(_ number: Int) -> any ShapeNumber.Type {
        precondition(number >= 0, "shape numbers are not negative")
        if number == 0 { return ShapeZero.self }
        func wrap<Half: ShapeNumber>(_: Half.Type) -> any ShapeNumber.Type {
            number % 2 == 0 ? ShapeTwice<Half>.self : ShapeTwicePlusOne<Half>.self
        }
        return wrap(statementType(number / 2))
    }
}

/// A non-negative number spelled as a type, one bit per generic level (``ShapeZero``,
/// ``ShapeTwice``, ``ShapeTwicePlusOne``), so that every number is a distinct type, and so a
/// distinct prepared statement for postgres-nio.
protocol ShapeNumber {
    /// The number the type spells.
    static var number: Int { get }
}

/// Zero.
enum ShapeZero: ShapeNumber {
    static var number: Int { 0 }
}

/// Twice `Half`'s number.
enum ShapeTwice<Half: ShapeNumber>: ShapeNumber {
    static var number: Int { Half.number * 2 }
}

/// Twice `Half`'s number, plus one.
enum ShapeTwicePlusOne<Half: ShapeNumber>: ShapeNumber {
    static var number: Int { Half.number * 2 + 1 }
}

/// The plan statement registered in ``PlanShapes/shared`` under `Number`'s number, with the
/// values of one execution bound.
struct PlanShapeStatement<Number: ShapeNumber>: PostgresPreparedStatement {
    static var name: String { "bazaar_plan_\(Number.number)" }
    static var sql: String { PlanShapes.shared.text(Number.number) }
    typealias Row = PostgresRow

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}
