import BazaarAPI
import Foundation
import Testing

@Suite("Wire types that carry a secret never show it")
struct RedactedDescriptionsTests {
    static let secret = "s3cret-XYZ"
    static let tokens = Tokens(
        accessToken: "access-\(secret)", refreshToken: "refresh-\(secret)",
        expiresAt: Date(timeIntervalSince1970: 1_800_000_000))

    /// Every way Swift turns a value into text: interpolation, `String(reflecting:)`, `dump`.
    static func everyText(of value: Any) -> String {
        var dumped = ""
        dump(value, to: &dumped)
        return "\(value)\n\(String(reflecting: value))\n\(dumped)"
    }

    @Test("register, login, refresh, password change, account deletion and tokens print without their secret")
    func secretsAreRedacted() throws {
        let values: [Any] = [
            RegisterRequest(username: "ola", password: Self.secret, displayName: "Ola"),
            LoginRequest(username: "ola", password: Self.secret),
            RefreshRequest(refreshToken: Self.secret),
            ChangePasswordRequest(currentPassword: Self.secret, newPassword: "new-\(Self.secret)"),
            DeleteAccountRequest(password: Self.secret),
            Self.tokens,
        ]
        for value in values {
            let text = Self.everyText(of: value)
            #expect(!text.contains(Self.secret), "\(type(of: value)) showed its secret:\n\(text)")
            #expect(text.contains("[REDACTED]"), "\(type(of: value))")
        }
    }

    @Test("what is not secret still shows, by field name, so a log line stays useful")
    func otherFieldsShow() {
        let register = RegisterRequest(username: "ola", password: Self.secret, displayName: "Ola")
        #expect("\(register)" == #"RegisterRequest(username: "ola", password: [REDACTED], displayName: "Ola")"#)
        let text = Self.everyText(of: Self.tokens)
        #expect(text.contains("expiresAt: 2027-01-15 08:00:00 +0000") && text.contains("Bearer"), "\(text)")
    }

    @Test("a value holding tokens (a sign-in's answer, a list of them) is redacted through them")
    func holdersAreRedacted() {
        let user = User(
            id: "u1", username: "ola", displayName: "Ola", bio: nil, photoURL: nil,
            createdAt: Date(timeIntervalSince1970: 0))
        let answers = [AuthResponse(user: user, tokens: Self.tokens)]
        let text = Self.everyText(of: answers)
        #expect(!text.contains(Self.secret), "\(text)")
        #expect(text.contains("ola"))
    }
}
