import Testing

@testable import BazaarServer

@Suite("Request ids are made without a system call and never repeat")
struct RequestIDSourceTests {
    @Test func idsAre32LowercaseHexDigitsAndDistinct() {
        let source = RequestIDSource()
        var seen = Set<String>()
        for _ in 0..<100_000 {
            let id = source.next()
            #expect(id.utf8.count == 32)
            #expect(id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            seen.insert(id)
        }
        #expect(seen.count == 100_000)
    }

    @Test func twoSourcesDoNotShareASequence() {
        let first = RequestIDSource()
        let second = RequestIDSource()
        let ids = (0..<1_000).map { _ in first.next() }
        #expect(Set(ids).isDisjoint(with: (0..<1_000).map { _ in second.next() }))
    }

    @Test func theMixIsABijectionOnTheWordsItIsGiven() {
        // The low half of an id is mix(counter ^ seed); distinct counters must give distinct words.
        let words = (0..<UInt64(65_536)).map(RequestIDSource.mix)
        #expect(Set(words).count == words.count)
        #expect(RequestIDSource.hex(0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210) == "0123456789abcdeffedcba9876543210")
    }
}
