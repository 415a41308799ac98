import Testing
@Test func x() { #expect(true) }
