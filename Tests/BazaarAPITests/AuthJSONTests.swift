import Foundation
import Testing

@testable import BazaarAPI

@Suite("Auth bodies keep their wire form")
struct AuthJSONTests {
    @Test func tokensRoundTripWithBearerType() throws {
        let json =
            #"{"accessToken":"a.b.c","expiresAt":"2026-01-02T03:04:05.000Z","refreshToken":"r1","tokenType":"Bearer"}"#
        let (tokens, encoded) = try roundTrip(Tokens.self, json)
        #expect(tokens.tokenType == "Bearer")
        #expect(encoded == json)
    }

    @Test func authResponseNestsUserAndTokens() throws {
        let json =
            #"{"tokens":{"accessToken":"a","expiresAt":"2026-01-02T03:04:05.000Z","refreshToken":"r","tokenType":"Bearer"},"user":{"bio":null,"createdAt":"2026-01-02T03:04:05.000Z","displayName":"Ada","id":"u1","photoURL":null,"ratingAverage":null,"ratingCount":0,"username":"ada"}}"#
        let (response, encoded) = try roundTrip(AuthResponse.self, json)
        #expect(response.user.username == "ada")
        #expect(encoded == json)
    }

    @Test func registerLoginAndRefreshRequestsRoundTrip() throws {
        let register = #"{"displayName":"Ada","password":"correct horse","username":"ada"}"#
        #expect(try roundTrip(RegisterRequest.self, register).encoded == register)
        let login = #"{"password":"correct horse","username":"ada"}"#
        #expect(try roundTrip(LoginRequest.self, login).encoded == login)
        let refresh = #"{"refreshToken":"opaque"}"#
        #expect(try roundTrip(RefreshRequest.self, refresh).encoded == refresh)
    }

    @Test func registerWithoutPasswordFailsToDecode() {
        #expect(throws: DecodingError.self) {
            try roundTrip(RegisterRequest.self, #"{"displayName":"Ada","username":"ada"}"#)
        }
    }

    @Test func errorBodyHasNestedCodeAndMessage() throws {
        let json = #"{"error":{"code":"invalid_field","message":"username must be 3-32 characters"}}"#
        let (body, encoded) = try roundTrip(ErrorBody.self, json)
        #expect(body.error.code == "invalid_field")
        #expect(encoded == json)
    }
}
