import _CryptoExtras
import Crypto
import Foundation
import Signing
import Testing
import TestSupport
import TestThreads

/// `slipway push check`'s library: .p8 keys and push .p12s, good and bad.
@Suite(.dedicatedThreads) struct PushCredentialTests {
    // MARK: .p8

    @Test func aP8KeyTakesItsKeyIDFromTheFileNameAndSignsAnES256Token() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-p8")
        let (pem, publicPEM) = PushFixtures.p8()
        let path = try folder.write("AuthKey_ABC123DEFG.p8", pem)
        let key = try APNsAuthKey.load(file: path, keyID: nil, teamID: "AB12CD34EF")
        #expect(key.keyID == "ABC123DEFG")
        let token = try key.token(now: Date(timeIntervalSince1970: 1_800_000_000))
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        #expect(String(decoding: try #require(Self.unbase64URL(parts[0])), as: UTF8.self) == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
        #expect(String(decoding: try #require(Self.unbase64URL(parts[1])), as: UTF8.self) == #"{"iss":"AB12CD34EF","iat":1800000000}"#)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Self.unbase64URL(parts[2])))
        #expect(try P256.Signing.PublicKey(pemRepresentation: publicPEM)
            .isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)))
        let report = try PushCredentialCheck.key(file: path, keyID: "ABC123DEFG", teamID: "AB12CD34EF", topic: "com.example.app")
        #expect(report.text == """
            \(path): valid APNs auth key (token-based)
              key id:      ABC123DEFG
              team id:     AB12CD34EF
              bundle id:   com.example.app
              environment: sandbox and production
              topics:      any app of team AB12CD34EF (the key is not tied to one app)
              expires:     never (keys do not expire; revoke them in the portal)
            """)
        #expect(!report.text.contains(pem.split(separator: "\n")[1]))
    }

    @Test func badP8KeysAreRefusedWithExactMessagesAndNothingChanges() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-p8-bad")
        let (pem, _) = PushFixtures.p8()
        let named = try folder.write("AuthKey_ABC123DEFG.p8", pem)
        let plain = try folder.write("push.p8", pem)
        let rsa = try folder.write("rsa.p8", try _RSA.Signing.PrivateKey(keySize: .bits2048).pkcs8PEMRepresentation)
        let p384 = try folder.write("p384.p8", P384.Signing.PrivateKey().pemRepresentation)
        let garbage = try folder.write("garbage.p8", "not a key\n")
        let encrypted = try folder.write("enc.p8", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBAQ==\n-----END ENCRYPTED PRIVATE KEY-----\n")
        let before = try Snapshot.of(folder.path)
        let cases: [(String, String?, String, PushCredentialError)] = [
            (named, "ZZZ999ZZZZ", "AB12CD34EF", .keyIDMismatch(file: named, fromName: "ABC123DEFG", given: "ZZZ999ZZZZ")),
            (plain, nil, "AB12CD34EF", .missingKeyID(file: plain)),
            (plain, "short", "AB12CD34EF", .malformedKeyID("short")),
            (plain, "ABC123DEFG", "team", .malformedTeamID("team")),
            (rsa, "ABC123DEFG", "AB12CD34EF", .notP256(file: rsa, found: "an RSA key")),
            (p384, "ABC123DEFG", "AB12CD34EF", .notP256(file: p384, found: "an EC key on the P-384 curve")),
            (garbage, "ABC123DEFG", "AB12CD34EF", .notPEM(file: garbage)),
            (encrypted, "ABC123DEFG", "AB12CD34EF", .encryptedKey(file: encrypted)),
            (folder.path + "/missing.p8", "ABC123DEFG", "AB12CD34EF", .unreadableFile(file: folder.path + "/missing.p8", reason: "there is no such file")),
        ]
        for (file, keyID, teamID, expected) in cases {
            #expect(throws: expected) { try APNsAuthKey.load(file: file, keyID: keyID, teamID: teamID) }
        }
        #expect(PushCredentialError.notP256(file: rsa, found: "an RSA key").errorDescription == "'\(rsa)' holds an RSA key, not the P-256 (ES256) private key of an APNs auth key. Download the key again from Certificates, Identifiers & Profiles → Keys (with Apple Push Notifications service enabled).")
        #expect(PushCredentialError.keyIDMismatch(file: named, fromName: "ABC123DEFG", given: "ZZZ999ZZZZ").errorDescription == "--key-id is 'ZZZ999ZZZZ', but '\(named)' is named for key 'ABC123DEFG'. Use the key id of this file (or rename the file if it was saved under another key's name).")
        #expect(PushCredentialError.missingKeyID(file: plain).errorDescription == "'\(plain)' is not named AuthKey_<KEYID>.p8, so its key id is unknown. Give it with --key-id (the Key ID column of Certificates, Identifiers & Profiles → Keys).")
        let huge = try folder.write("huge.p8", String(repeating: "A", count: APNsAuthKey.fileLimit + 1))
        #expect(throws: PushCredentialError.fileTooLarge(file: huge, limit: APNsAuthKey.fileLimit)) {
            try APNsAuthKey.load(file: huge, keyID: "ABC123DEFG", teamID: "AB12CD34EF")
        }
        try FileManager.default.removeItem(atPath: huge)
        #expect(try Snapshot.of(folder.path) == before)
    }

    // MARK: .p12

    @Test func pushCertificatesShowTheirEnvironmentTopicsAndExpiry() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-p12")
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))  // whole seconds, as certificates store them
        let development = try CertificateFixtures.write(try PushFixtures.p12(environment: .development), "dev.p12", in: folder)
        let production = try CertificateFixtures.write(try PushFixtures.p12(environment: .production), "prod.p12", in: folder)
        let universal = try CertificateFixtures.write(
            try PushFixtures.p12(environment: .universal, extraTopics: [("com.example.app.voip", "voip"),
                                                                         ("com.example.app.complication", "complication")]),
            "universal.p12", in: folder)
        let dev = try PushCredentialCheck.certificate(file: development, password: "secret", topic: nil, now: now)
        #expect(dev.environment == "sandbox")
        #expect(dev.subject == "Apple Development IOS Push Services: com.example.app")
        #expect(dev.topics == [PushCertificate.Topic(name: "com.example.app", services: ["app"])])
        #expect(dev.teamID == "AB12CD34EF")
        #expect(dev.warnings.isEmpty)
        #expect(try PushCredentialCheck.certificate(file: production, password: "secret", topic: nil, now: now).environment == "production")
        let both = try PushCredentialCheck.certificate(file: universal, password: "secret", topic: "com.example.app.voip", now: now)
        #expect(both.environment == "both")
        #expect(both.bundleID == "com.example.app")
        #expect(both.topics.map(\.name) == ["com.example.app", "com.example.app.voip", "com.example.app.complication"])
        #expect(both.topics.map(\.services) == [["app"], ["voip"], ["complication"]])
        #expect(both.text.contains("  environment: sandbox and production\n  topic:       com.example.app (app)\n  topic:       com.example.app.voip (voip)\n"))
        let json = try both.json()
        #expect(json.contains(#""environment" : "both""#))
        #expect(json.contains(#""version" : 1"#))
        #expect(!json.contains("secret"))
    }

    @Test func expiredExpiringAndNonPushCertificatesAndWrongPasswords() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-p12-bad")
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))  // whole seconds, as certificates store them
        let expired = try CertificateFixtures.write(
            try PushFixtures.p12(environment: .universal, notBefore: now.addingTimeInterval(-400 * 86_400),
                                 notAfter: now.addingTimeInterval(-86_400)), "expired.p12", in: folder)
        let expiring = try CertificateFixtures.write(
            try PushFixtures.p12(environment: .universal, notAfter: now.addingTimeInterval(10 * 86_400 - 60)), "expiring.p12", in: folder)
        let signing = try CertificateFixtures.write(try PushFixtures.codeSigningP12(), "signing.p12", in: folder)
        let before = try Snapshot.of(folder.path)
        let expiredDay = PushFixturesDay.of(now.addingTimeInterval(-86_400))
        #expect(throws: PushCredentialError.expired(file: expired, date: expiredDay)) {
            try PushCredentialCheck.certificate(file: expired, password: "secret", topic: nil, now: now)
        }
        #expect(PushCredentialError.expired(file: expired, date: expiredDay).errorDescription == "The push certificate in '\(expired)' expired on \(expiredDay). Create a new one in Certificates, Identifiers & Profiles (or switch to a .p8 key, which does not expire) and export it with its key as .p12.")
        let soon = try PushCredentialCheck.certificate(file: expiring, password: "secret", topic: nil, now: now)
        let soonDay = PushFixturesDay.of(now.addingTimeInterval(10 * 86_400 - 60))
        #expect(soon.warnings == ["the push certificate in '\(expiring)' expires on \(soonDay) (in 10 days); create a new one in Certificates, Identifiers & Profiles, or switch to a .p8 key"])
        #expect(throws: PushCredentialError.notAPushCertificate(file: signing, commonName: "Apple Distribution: Example Ltd (AB12CD34EF)")) {
            try PushCredentialCheck.certificate(file: signing, password: "secret", topic: nil, now: now)
        }
        #expect(throws: SigningCertificateError.wrongPKCS12Password(file: expiring)) {
            try PushCredentialCheck.certificate(file: expiring, password: "wrong", topic: nil, now: now)
        }
        #expect(throws: PushCredentialError.topicNotInCertificate(file: expiring, topic: "com.other.app", topics: ["com.example.app"])) {
            try PushCredentialCheck.certificate(file: expiring, password: "secret", topic: "com.other.app", now: now)
        }
        #expect(PushCredentialError.notAPushCertificate(file: signing, commonName: "Apple Distribution: Example Ltd (AB12CD34EF)").errorDescription == "The certificate in '\(signing)' ('Apple Distribution: Example Ltd (AB12CD34EF)') is not an Apple Push Services certificate: it has none of Apple's push extensions (1.2.840.113635.100.6.3.1, .3.2). Export the push certificate (\"Apple Push Services: <bundle id>\") with its key from Keychain Access, or use a .p8 key instead.")
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func theTopicsExtensionIsReadAsAppleEncodesIt() throws {
        let value = try TestCertificateAuthority.topicsValue([("com.example.app", "app"), ("com.example.app.voip", "voip")])
        // SEQUENCE { UTF8String, SEQUENCE { UTF8String }, ... }, as Apple's universal certificates carry it.
        #expect(value.prefix(2) == [0x30, UInt8(value.count - 2)])
        #expect(PushCertificate.topics(in: value) == [.init(name: "com.example.app", services: ["app"]),
                                                      .init(name: "com.example.app.voip", services: ["voip"])])
        #expect(PushCertificate.topics(in: [0x04, 0x00]) == nil)
    }

    static func unbase64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}

enum PushFixturesDay {
    static func of(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
