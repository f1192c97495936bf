import AppleAPI
import Crypto
import Foundation
import Testing
import TestThreads

@Suite("App Store Connect tokens", .dedicatedThreads)
struct AppStoreConnectTokenTests {
    static func decode(_ part: Substring) throws -> [String: Any] {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        let data = try #require(Data(base64Encoded: text))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func signature(_ part: Substring) throws -> Data {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return try #require(Data(base64Encoded: text))
    }

    @Test func aTeamTokenHasAppleClaimsAndARawSignature() throws {
        let privateKey = P256.Signing.PrivateKey()
        let key = try AppStoreConnectKey(issuerID: AppleAPIFixture.issuerID, keyID: AppleAPIFixture.keyID,
                                         privateKeyPEM: privateKey.pemRepresentation)
        let now = Date(timeIntervalSince1970: 1_700_000_000.7)
        let token = try AppStoreConnectToken.make(key: key, now: now, lifetime: .seconds(3600))
        let parts = token.value.split(separator: ".")
        #expect(parts.count == 3)
        let header = try Self.decode(parts[0])
        #expect(header as NSDictionary == ["alg": "ES256", "kid": "ABC123DEFG", "typ": "JWT"] as NSDictionary)
        let claims = try Self.decode(parts[1])
        #expect(claims as NSDictionary == ["iss": AppleAPIFixture.issuerID, "iat": 1_700_000_000, "exp": 1_700_001_200,
                                           "aud": "appstoreconnect-v1"] as NSDictionary)
        let raw = try Self.signature(parts[2])
        #expect(raw.count == 64)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: raw)
        #expect(privateKey.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        #expect(token.expiresAt.timeIntervalSince(token.issuedAt) == 1200)
    }

    @Test func anIndividualTokenSaysSubUserAndHasNoIssuer() throws {
        let key = try AppStoreConnectKey(issuerID: nil, keyID: AppleAPIFixture.keyID,
                                         privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation, individual: true)
        let token = try AppStoreConnectToken.make(key: key, now: Date(timeIntervalSince1970: 1_700_000_000))
        let claims = try Self.decode(token.value.split(separator: ".")[1])
        #expect(claims as NSDictionary == ["sub": "user", "iat": 1_700_000_000, "exp": 1_700_001_140,
                                           "aud": "appstoreconnect-v1"] as NSDictionary)
    }

    @Test func theProviderReusesATokenAndRenewsItBeforeItExpires() async throws {
        let key = try AppStoreConnectKey(issuerID: AppleAPIFixture.issuerID, keyID: AppleAPIFixture.keyID,
                                         privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation)
        let clock = TestClock(Date(timeIntervalSince1970: 1_700_000_000))
        let provider = AppStoreConnectTokenProvider(key: key, now: { clock.now })
        let first = try await provider.token()
        clock.advance(seconds: 17 * 60)
        #expect(try await provider.token() == first)
        clock.advance(seconds: 60 + 1)  // within a minute of the 19-minute expiry
        let second = try await provider.token()
        #expect(second != first)
        #expect(second.issuedAt == Date(timeIntervalSince1970: 1_700_000_000 + 18 * 60 + 1))
        #expect(await provider.tokensMade == 2)
        let renewed = try await provider.renew()
        #expect(renewed.value != second.value || renewed.issuedAt == second.issuedAt)
        #expect(await provider.tokensMade == 3)
    }
}
