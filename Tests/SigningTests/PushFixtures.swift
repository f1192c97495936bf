import Crypto
import Foundation
import Signing
import TestSupport
import X509

/// Push credentials made for tests: .p8 keys (P-256, and keys of other kinds) and push .p12s
/// issued by a test CA with Apple's push extensions. Nothing here is a real key.
enum PushFixtures {
    static let keyID = "ABC123DEFG"
    static let teamID = "AB12CD34EF"
    static let bundleID = "com.example.app"

    /// A new P-256 key: its PKCS#8 PEM (the .p8's text) and the public key PEM.
    static func p8() -> (pem: String, publicKeyPEM: String) {
        let key = P256.Signing.PrivateKey()
        return (key.pemRepresentation, key.publicKey.pemRepresentation)
    }

    /// A push .p12 with `password`, valid from `notBefore` to `notAfter`.
    static func p12(environment: TestCertificateAuthority.PushEnvironment, password: String = "secret",
                    extraTopics: [(String, String)] = [], notBefore: Date = Date().addingTimeInterval(-86_400),
                    notAfter: Date = Date().addingTimeInterval(300 * 86_400)) throws -> [UInt8] {
        let key = try SigningPrivateKey.generate()
        let certificate = try TestCertificateAuthority().issuePush(
            publicKey: key.publicKey, bundleID: bundleID, environment: environment, teamID: teamID, extraTopics: extraTopics,
            notValidBefore: notBefore, notValidAfter: notAfter)
        return try SigningIdentity(certificate: try SigningCertificate(certificate), key: key).pkcs12(password: password)
    }

    /// A .p12 of an ordinary code signing certificate (no push extension).
    static func codeSigningP12(password: String = "secret") throws -> [UInt8] {
        let (certificate, key) = try CertificateFixtures.identity()
        return try SigningIdentity(certificate: certificate, key: key).pkcs12(password: password)
    }
}
