import BazaarStorage
import Foundation
import Testing

@testable import BazaarServer

/// Ids are random version 4 UUIDs in the lower-case text the contract shows.
@Suite("RandomID")
struct RandomIDTests {
    @Test("ids are lower-case version 4 UUIDs that Foundation reads back, and do not repeat")
    func idsAreLowerCaseVersion4UUIDs() throws {
        let pattern = try Regex("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        var seen = Set<String>()
        for _ in 0..<2_000 {
            let id = RandomID.make()
            #expect(id.wholeMatch(of: pattern) != nil, "\(id)")
            #expect(UUID(uuidString: id)?.uuidString.lowercased() == id)
            seen.insert(id)
        }
        #expect(seen.count == 2_000)
    }

    @Test("the bits land where RFC 4122 puts them")
    func bitsAreLaidOutInOrder() {
        #expect(
            RandomID.make(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
                == "01234567-89ab-4def-bedc-ba9876543210")
        #expect(RandomID.make(high: 0, low: 0) == "00000000-0000-4000-8000-000000000000")
        #expect(RandomID.make(high: .max, low: .max) == "ffffffff-ffff-4fff-bfff-ffffffffffff")
    }

    @Test(
        "an id is well formed when it is 8-4-4-4-12 lower-case hex digits, as ids were checked before",
        arguments: [
            ("01234567-89ab-4def-bedc-ba9876543210", true), ("00000000-0000-0000-0000-000000000000", true),
            ("01234567-89AB-4DEF-BEDC-BA9876543210", false), ("01234567-89ab-4def-bedc-ba987654321", false),
            ("01234567-89ab-4def-bedc-ba98765432100", false), ("0123456789ab-4def-bedc-ba98765432100", false),
            ("01234567-89ab-4def-bedc-ba987654321g", false), ("01234567+89ab-4def-bedc-ba9876543210", false),
            ("01234567-89ab-4def-bedc-ba987654321\u{E9}", false), ("{1234567-89ab-4def-bedc-ba9876543210", false),
            ("", false), ("-", false),
        ])
    func wellFormedIds(_ text: String, _ expected: Bool) {
        #expect(RandomID.isWellFormed(text) == expected)
        #expect(RandomID.isWellFormed(text[...]) == expected)
        // The check it replaced (Foundation's parse and a lower-case test) agrees on every case.
        #expect((UUID(uuidString: text) != nil && text == text.lowercased()) == expected)
    }

    @Test("an id with a leading space is refused (Foundation's sscanf-based parse on Linux takes it)")
    func aLeadingSpaceIsNotAnId() {
        #expect(!RandomID.isWellFormed(" 1234567-89ab-4def-bedc-ba9876543210"))
    }

    @Test("every id made is well formed")
    func madeIdsAreWellFormed() {
        for _ in 0..<1_000 { #expect(RandomID.isWellFormed(RandomID.make())) }
    }
}
