import Foundation
import Signing
import TestSupport
import X509

/// Shared pieces of the certificate, PKCS#12 and profile tests: a key issued a certificate by a
/// test CA, and the real `openssl` command.
enum CertificateFixtures {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    static let notBefore = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01
    static let notAfter = Date(timeIntervalSince1970: 1_798_761_600) // 2027-01-01

    /// A new key and a certificate for it, "Apple Distribution: Example Ltd (AB12CD34EF)".
    static func identity(commonName: String = "Apple Distribution: Example Ltd (AB12CD34EF)",
                         authority: TestCertificateAuthority? = nil) throws -> (SigningCertificate, SigningPrivateKey) {
        let key = try SigningPrivateKey.generate()
        let ca = try authority ?? TestCertificateAuthority()
        let certificate = try ca.issue(publicKey: key.publicKey, commonName: commonName, teamID: "AB12CD34EF",
                                       notValidBefore: notBefore, notValidAfter: notAfter)
        return (try SigningCertificate(certificate), key)
    }

    /// Runs `openssl` with `arguments`; throws with its standard error when it fails.
    @discardableResult
    static func openssl(_ arguments: [String], in folder: TemporaryDirectory) throws -> String {
        let result = try CommandResult.run("/usr/bin/openssl", arguments, in: folder.path)
        guard result.status == 0 else {
            throw Failed(description: "openssl \(arguments.joined(separator: " ")) failed: \(result.standardError)")
        }
        return result.standardOutput
    }

    static func write(_ bytes: [UInt8], _ name: String, in folder: TemporaryDirectory) throws -> String {
        let path = folder.path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
