import BazaarStorage
import Testing

/// Both engines' keyset pages come from ``Slice/init(fetched:limit:item:position:)``: rows fetched
/// with `LIMIT limit + 1`.
@Suite("Slice from limit + 1 rows")
struct SliceTests {
    @Test(
        "the first limit rows are the page; the last one's position is next only when the extra row came",
        arguments: [
            (fetched: [10, 9, 8, 7], limit: 3, items: [10, 9, 8], next: Int64(8)),
            (fetched: [10, 9, 8], limit: 3, items: [10, 9, 8], next: nil),
            (fetched: [10], limit: 3, items: [10], next: nil),
            (fetched: [], limit: 3, items: [], next: nil),
        ] as [(fetched: [Int], limit: Int, items: [Int], next: Int64?)])
    func page(fetched: [Int], limit: Int, items: [Int], next: Int64?) {
        let slice = Slice(fetched: fetched, limit: limit, item: { $0 }, position: { Int64($0) })
        #expect(slice.items == items)
        #expect(slice.next == next)
    }
}
