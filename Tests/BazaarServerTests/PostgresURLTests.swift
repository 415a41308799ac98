import BazaarStorage
import Testing

@Suite("PostgreSQL URLs")
struct PostgresURLTests {
    @Test(arguments: ["db.example.com", "10.0.0.7", "[2001:db8::1]"])
    func aHostOffThisMachineRequiresTLSUnlessTheURLSaysOtherwise(host: String) throws {
        #expect(try PostgresURL("postgres://bazaar@\(host)/bazaar").sslMode == .require)
        #expect(try PostgresURL("postgres://bazaar@\(host)/bazaar?sslmode=prefer").sslMode == .prefer)
        #expect(try PostgresURL("postgres://bazaar@\(host)/bazaar?sslmode=disable").sslMode == .disable)
    }

    @Test(arguments: ["localhost", "127.0.0.1", "127.0.1.1", "[::1]"])
    func thisMachineConnectsInTheClearByDefault(host: String) throws {
        #expect(try PostgresURL("postgres://bazaar@\(host):5432/bazaar").sslMode == .disable)
    }

    @Test func anUnknownSSLModeIsRefused() {
        #expect(throws: ConfigurationError.self) { try PostgresURL("postgres://bazaar@db.example.com/b?sslmode=allow") }
    }
}
