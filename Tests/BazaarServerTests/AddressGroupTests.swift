import Testing

@testable import BazaarServer

@Suite("Per-address limits group IPv6 by /64")
struct AddressGroupTests {
    @Test func ipv6AddressesInOneSlash64ShareAKeyAndOthersDoNot() {
        let first = AddressGroup.key(for: "2001:db8:1:2::1")
        #expect(first == "2001:db8:1:2::/64")
        #expect(AddressGroup.key(for: "2001:db8:1:2:ffff:eeee:dddd:cccc") == first)
        #expect(AddressGroup.key(for: "2001:db8:1:3::1") != first)
    }

    @Test func ipv4CountsAloneAlsoWhenWrittenAsIPv6() {
        #expect(AddressGroup.key(for: "192.0.2.7") == "192.0.2.7")
        #expect(AddressGroup.key(for: "::ffff:192.0.2.7") == "192.0.2.7")
        #expect(AddressGroup.key(for: "192.0.2.8") != "192.0.2.7")
    }

    @Test func textThatIsNoAddressIsItsOwnKey() {
        #expect(AddressGroup.key(for: "unknown") == "unknown")
        #expect(AddressGroup.key(for: "::zz") == "::zz")
    }
}
