import AppleAPI
import Basics
import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

@Suite("App Store Connect keys", .dedicatedThreads)
struct AppStoreConnectKeyTests {
    let pem = P256.Signing.PrivateKey().pemRepresentation

    @Test func aTeamKeyAndAnIndividualKeyAreAccepted() throws {
        let team = try AppStoreConnectKey(issuerID: AppleAPIFixture.issuerID, keyID: "ABC123DEFG", privateKeyPEM: pem)
        #expect(team.kind == .team(issuerID: AppleAPIFixture.issuerID))
        #expect(team.issuerID == AppleAPIFixture.issuerID)
        let individual = try AppStoreConnectKey(issuerID: nil, keyID: "ABC123DEFG", privateKeyPEM: pem, individual: true)
        #expect(individual.kind == .individual)
        #expect(individual.issuerID == nil)
    }

    @Test func keyFilesAreRead() throws {
        let folder = try TemporaryDirectory(prefix: "asc-key")
        try folder.write("AuthKey.p8", pem)
        let key = try AppStoreConnectKey.load(issuerID: AppleAPIFixture.issuerID, keyID: "ABC123DEFG", file: folder.path + "/AuthKey.p8")
        #expect(key.keyID == "ABC123DEFG")
        let missing = folder.path + "/nope.p8"
        #expect(throws: AppStoreConnectKeyError.unreadableKeyFile(path: missing, reason: "there is no such file")) {
            try AppStoreConnectKey.load(issuerID: AppleAPIFixture.issuerID, keyID: "ABC123DEFG", file: missing)
        }
        #expect(AppStoreConnectKeyError.unreadableKeyFile(path: missing, reason: "there is no such file").errorDescription
            == "cannot read the App Store Connect private key '\(missing)': there is no such file. Give the path of the .p8 file downloaded from App Store Connect.")
    }

    @Test func badKeysGetExactMessages() throws {
        let cases: [(String?, String, String, Bool, String)] = [
            (AppleAPIFixture.issuerID, "ABC123DEFG", "hello", false,
             "the App Store Connect private key given is not PEM text (a '-----BEGIN PRIVATE KEY-----' block). Give the whole .p8 file downloaded from App Store Connect (Users and Access → Integrations), unchanged."),
            (AppleAPIFixture.issuerID, "ABC123DEFG", P384.Signing.PrivateKey().pemRepresentation, false,
             "the App Store Connect private key given is an EC key on the P-384 curve, not a P-256 key. App Store Connect API keys are P-256 (ES256): give the .p8 file downloaded from Users and Access → Integrations."),
            (AppleAPIFixture.issuerID, "ABC123DEFG", P256.Signing.PrivateKey().publicKey.pemRepresentation, false,
             "the App Store Connect private key given is a public key, not a P-256 key. App Store Connect API keys are P-256 (ES256): give the .p8 file downloaded from Users and Access → Integrations."),
            (nil, "ABC123DEFG", pem, false,
             "no issuer id was given for the team key 'ABC123DEFG'. Copy the Issuer ID shown above the key list in App Store Connect (Users and Access → Integrations), or say that the key is an individual key."),
            ("issuer", "ABC123DEFG", pem, false,
             "the issuer id 'issuer' is not a UUID (like 57246542-96fe-1a63-e053-0824d011072a). Copy the Issuer ID shown above the key list in App Store Connect (Users and Access → Integrations)."),
            (AppleAPIFixture.issuerID, "ABC123DEFG", pem, true,
             "the individual key 'ABC123DEFG' was given an issuer id; individual keys have none. Drop the issuer id, or say that the key is a team key."),
            (AppleAPIFixture.issuerID, "ABC123", pem, false,
             "the key id 'ABC123' is not 10 letters and digits. Copy the Key ID column of the key in App Store Connect (Users and Access → Integrations)."),
        ]
        for (issuer, keyID, text, individual, message) in cases {
            #expect {
                _ = try AppStoreConnectKey(issuerID: issuer, keyID: keyID, privateKeyPEM: text, individual: individual)
            } throws: { error in
                (error as? AppStoreConnectKeyError)?.errorDescription == message
            }
        }
    }

    @Test func theKeyTextAndEachBodyLineAreMasked() throws {
        let key = try AppStoreConnectKey(issuerID: AppleAPIFixture.issuerID, keyID: "ABC123DEFG", privateKeyPEM: pem)
        let bodyLines = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        #expect(bodyLines.count >= 2)
        for line in bodyLines { #expect(key.secretsToMask.contains(line)) }
        #expect(key.secretsToMask.contains(pem))
        let redactor = Redactor(secrets: key.secretsToMask)
        let leaked = "key: \(pem)\nline: \(bodyLines[1])\njoined: \(bodyLines.joined())"
        let masked = redactor.redact(leaked)
        for line in bodyLines { #expect(!masked.contains(line)) }
        #expect(!masked.contains(bodyLines.joined()))
    }
}
