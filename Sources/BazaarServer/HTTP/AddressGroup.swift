import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The key under which per-address limits (connections, login failures, quotas) count a client.
///
/// An IPv4 address counts alone. An IPv6 address counts with its /64: one subscriber is routinely
/// given a whole /64, so counting each address alone would give one client 2^64 allowances. An
/// IPv4 address written as IPv6 (`::ffff:192.0.2.1`) counts as the IPv4 address it is.
enum AddressGroup {
    /// Whether `text` is an IPv4 or IPv6 address literal: an `X-Forwarded-For` entry that is not
    /// one (a header a client wrote, 3 KB, say) is ignored rather than made a throttle key.
    static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// The key for `address` (text as the socket or `X-Forwarded-For` gives it); text that is not
    /// an IPv6 address is its own key.
    static func key(for address: String) -> String {
        // Bytes, not Foundation's `contains`: this runs on every counted request.
        guard address.utf8.contains(UInt8(ascii: ":")) else { return address }
        var bytes = in6_addr()
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        let octets = withUnsafeBytes(of: &bytes) { Array($0) }
        if octets[0..<10].allSatisfy({ $0 == 0 }) && octets[10] == 0xff && octets[11] == 0xff {
            return octets[12..<16].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map {
            String(UInt16(octets[$0]) << 8 | UInt16(octets[$0 + 1]), radix: 16)
        }
        return groups.joined(separator: ":") + "::/64"
    }
}
