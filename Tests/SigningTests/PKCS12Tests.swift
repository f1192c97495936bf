import Foundation
import Signing
import Testing
import TestSupport
import TestThreads

/// PKCS#12 written by Slipway and read by openssl, and the reverse.
@Suite("PKCS#12", .dedicatedThreads) struct PKCS12Tests {
    static let password = "correct horse battery"

    @Test func openSSLReadsSlipwaysPKCS12() throws {
        let folder = try TemporaryDirectory()
        let (certificate, key) = try CertificateFixtures.identity()
        let identity = try SigningIdentity(certificate: certificate, key: key)
        let p12 = try identity.pkcs12(password: Self.password)
        let path = try CertificateFixtures.write(p12, "identity.p12", in: folder)
        let pass = "pass:" + Self.password
        let info = try CertificateFixtures.openssl(["pkcs12", "-in", path, "-info", "-noout", "-passin", pass], in: folder)
            + (try CommandResult.run("/usr/bin/openssl", ["pkcs12", "-in", path, "-info", "-noout", "-passin", pass]).standardError)
        #expect(info.contains("MAC: sha256, Iteration 2048"))
        #expect(info.contains("MAC length: 32, salt length: 8"))
        #expect(info.contains("PKCS7 Encrypted data: PBES2, PBKDF2, AES-256-CBC, Iteration 2048, PRF hmacWithSHA256"))
        #expect(info.contains("Shrouded Keybag: PBES2, PBKDF2, AES-256-CBC, Iteration 2048, PRF hmacWithSHA256"))
        let dump = try CertificateFixtures.openssl(["pkcs12", "-in", path, "-nodes", "-passin", pass, "-out", "dump.pem"], in: folder)
        #expect(dump.isEmpty)
        let pem = String(decoding: try CertificateFixtures.read(folder.path + "/dump.pem"), as: UTF8.self)
        #expect(pem.contains("friendlyName: Apple Distribution: Example Ltd (AB12CD34EF)"))
        #expect(pem.contains("localKeyID: " + stride(from: 0, to: 40, by: 2).map { offset -> String in
            let hex = certificate.sha1Fingerprint
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return String(hex[start..<hex.index(start, offsetBy: 2)])
        }.joined(separator: " ")))
        // The certificate openssl extracts is Slipway's, and its key has the same modulus.
        let fingerprint = try CertificateFixtures.openssl(["x509", "-in", "dump.pem", "-noout", "-fingerprint", "-sha1"], in: folder)
        #expect(fingerprint.replacingOccurrences(of: ":", with: "").contains(certificate.sha1Fingerprint))
        let keyModulus = try CertificateFixtures.openssl(["rsa", "-in", "dump.pem", "-noout", "-modulus"], in: folder)
        _ = try folder.write("key.pem", key.pkcs8PEM)
        #expect(keyModulus == (try CertificateFixtures.openssl(["rsa", "-in", "key.pem", "-noout", "-modulus"], in: folder)))
    }

    @Test func slipwayReadsItsOwnPKCS12() throws {
        let (certificate, key) = try CertificateFixtures.identity()
        let p12 = try SigningIdentity(certificate: certificate, key: key, friendlyName: "Team key").pkcs12(password: "pw")
        let read = try SigningIdentity(pkcs12: p12, password: "pw", file: "certs/distribution/ABC.p12")
        #expect(read.certificate.der == certificate.der)
        #expect(read.key.pkcs8PEM == key.pkcs8PEM)
        #expect(read.friendlyName == "Team key")
    }

    @Test func slipwayReadsOpenSSLsPKCS12() throws {
        let folder = try TemporaryDirectory()
        let (certificate, key) = try CertificateFixtures.identity()
        _ = try CertificateFixtures.write(certificate.der, "cert.cer", in: folder)
        _ = try folder.write("key.pem", key.pkcs8PEM)
        try CertificateFixtures.openssl(["x509", "-inform", "DER", "-in", "cert.cer", "-out", "cert.pem"], in: folder)
        try CertificateFixtures.openssl(["pkcs12", "-export", "-in", "cert.pem", "-inkey", "key.pem", "-name", "From OpenSSL",
                                         "-out", "openssl.p12", "-passout", "pass:s3cret"], in: folder)
        let read = try SigningIdentity(pkcs12: try CertificateFixtures.read(folder.path + "/openssl.p12"), password: "s3cret",
                                       file: "openssl.p12")
        #expect(read.certificate.der == certificate.der)
        #expect(read.key.pkcs8PEM == key.pkcs8PEM)
        #expect(read.friendlyName == "From OpenSSL")
    }

    @Test func wrongPasswordIsNamed() throws {
        let (certificate, key) = try CertificateFixtures.identity()
        let p12 = try SigningIdentity(certificate: certificate, key: key).pkcs12(password: "right-Zq81")
        let error = SigningCertificateError.wrongPKCS12Password(file: "certs/distribution/ABC.p12")
        do {
            _ = try SigningIdentity(pkcs12: p12, password: "typo-Zq82", file: "certs/distribution/ABC.p12")
            Issue.record("expected an error")
        } catch let thrown as SigningCertificateError {
            #expect(thrown == error)
            // Neither password appears in what is thrown.
            #expect(!"\(thrown) \(thrown.localizedDescription)".contains("Zq8"))
        }
        #expect(error.localizedDescription == "The password does not open 'certs/distribution/ABC.p12' (its integrity check "
            + "failed). Check the PKCS#12 password; if it is right, the file is damaged: export it again.")
    }

    @Test func legacyPKCS12IsRefusedWithAHint() throws {
        let folder = try TemporaryDirectory()
        let (certificate, key) = try CertificateFixtures.identity()
        _ = try CertificateFixtures.write(certificate.der, "cert.cer", in: folder)
        _ = try folder.write("key.pem", key.pkcs8PEM)
        try CertificateFixtures.openssl(["x509", "-inform", "DER", "-in", "cert.cer", "-out", "cert.pem"], in: folder)
        // 3DES for the key, no certificate encryption (RC2 needs OpenSSL's legacy provider).
        try CertificateFixtures.openssl(["pkcs12", "-export", "-in", "cert.pem", "-inkey", "key.pem", "-keypbe",
                                         "PBE-SHA1-3DES", "-certpbe", "NONE", "-macalg", "sha1", "-out", "legacy.p12",
                                         "-passout", "pass:pw"], in: folder)
        #expect(throws: SigningCertificateError.unsupportedPKCS12Algorithm(file: "legacy.p12",
                                                                          algorithm: "pbeWithSHAAnd3-KeyTripleDES-CBC")) {
            try SigningIdentity(pkcs12: try CertificateFixtures.read(folder.path + "/legacy.p12"), password: "pw", file: "legacy.p12")
        }
    }

    @Test func notAPKCS12IsNamed() throws {
        #expect(throws: SigningCertificateError.unreadablePKCS12(file: "x.p12", detail: "the PFX is malformed")) {
            try SigningIdentity(pkcs12: [0x02, 0x01, 0x03], password: "pw", file: "x.p12")
        }
    }
}
