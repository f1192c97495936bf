import Foundation
import Signing
import Testing
import TestSupport
import TestThreads
import X509

/// Keys, certificate signing requests and certificates, checked against the real openssl.
@Suite("Signing keys, requests and certificates", .dedicatedThreads) struct SigningRequestTests {
    @Test func requestIsVerifiedAndReadByOpenSSL() throws {
        let folder = try TemporaryDirectory()
        let key = try SigningPrivateKey.generate()
        #expect(key.keySizeInBits == 2048)
        let request = try SigningRequest(commonName: "Jane Appleseed", emailAddress: "jane@example.com",
                                         countryCode: "GB", key: key)
        #expect(request.pem.hasPrefix("-----BEGIN CERTIFICATE REQUEST-----\n"))
        _ = try folder.write("request.csr", request.pem)
        let output = try CertificateFixtures.openssl(["req", "-in", "request.csr", "-verify", "-noout", "-text"], in: folder)
        let subject = output.split(separator: "\n").first { $0.contains("Subject:") }.map(String.init) ?? ""
        #expect(subject.trimmingCharacters(in: .whitespaces)
            == "Subject: emailAddress = jane@example.com, CN = Jane Appleseed, C = GB")
        #expect(output.contains("Public-Key: (2048 bit)"))
        #expect(output.contains("Signature Algorithm: sha256WithRSAEncryption"))
        // The request's key is the key: openssl's modulus of both agree.
        _ = try folder.write("key.pem", key.pkcs8PEM)
        let requestModulus = try CertificateFixtures.openssl(["req", "-in", "request.csr", "-noout", "-modulus"], in: folder)
        let keyModulus = try CertificateFixtures.openssl(["rsa", "-in", "key.pem", "-noout", "-modulus"], in: folder)
        #expect(requestModulus == keyModulus)
    }

    @Test func certificateFactsMatchOpenSSL() throws {
        let folder = try TemporaryDirectory()
        let (certificate, key) = try CertificateFixtures.identity()
        #expect(certificate.commonName == "Apple Distribution: Example Ltd (AB12CD34EF)")
        #expect(certificate.teamID == "AB12CD34EF")
        #expect(certificate.kind == .appleDistribution)
        #expect(certificate.notValidAfter == CertificateFixtures.notAfter)
        #expect(certificate.matches(key))
        let path = try CertificateFixtures.write(certificate.der, "cert.cer", in: folder)
        let fingerprint = try CertificateFixtures.openssl(["x509", "-inform", "DER", "-in", path, "-noout", "-fingerprint", "-sha1"],
                                                          in: folder)
        #expect(fingerprint.trimmingCharacters(in: .whitespacesAndNewlines)
            == "sha1 Fingerprint=" + stride(from: 0, to: 40, by: 2).map { offset -> String in
                let start = certificate.sha1Fingerprint.index(certificate.sha1Fingerprint.startIndex, offsetBy: offset)
                return String(certificate.sha1Fingerprint[start..<certificate.sha1Fingerprint.index(start, offsetBy: 2)])
            }.joined(separator: ":"))
        let serial = try CertificateFixtures.openssl(["x509", "-inform", "DER", "-in", path, "-noout", "-serial"], in: folder)
        #expect(serial.trimmingCharacters(in: .whitespacesAndNewlines) == "serial=" + certificate.serialNumber)
        // PEM reads to the same certificate.
        let pem = try CertificateFixtures.openssl(["x509", "-inform", "DER", "-in", path], in: folder)
        let fromPEM = try SigningCertificate(bytes: Array(pem.utf8), file: "cert.pem")
        #expect(fromPEM.der == certificate.der)
    }

    @Test func kindsAndExpiry() throws {
        #expect(SigningCertificate.Kind(commonName: "Apple Development: Jane (XYZ)") == .appleDevelopment)
        #expect(SigningCertificate.Kind(commonName: "Developer ID Application: Example (AB12CD34EF)") == .developerIDApplication)
        #expect(SigningCertificate.Kind(commonName: "iPhone Distribution: Example") == .iPhoneDistribution)
        #expect(SigningCertificate.Kind(commonName: "Something else") == .other)
        let (certificate, _) = try CertificateFixtures.identity()
        let day: TimeInterval = 86_400
        #expect(certificate.expiresWithin(days: 30, now: CertificateFixtures.notAfter.addingTimeInterval(-29 * day)))
        #expect(!certificate.expiresWithin(days: 30, now: CertificateFixtures.notAfter.addingTimeInterval(-31 * day)))
        #expect(certificate.expiresWithin(days: 30, now: CertificateFixtures.notAfter.addingTimeInterval(day)))
    }

    @Test func notACertificateIsNamed() throws {
        #expect(throws: SigningCertificateError.notACertificate(file: "certs/x.cer", detail: "the PEM block is 'PRIVATE KEY', not 'CERTIFICATE'")) {
            try SigningCertificate(bytes: Array("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8), file: "certs/x.cer")
        }
        do {
            _ = try SigningCertificate(bytes: Array("hello".utf8), file: "certs/y.cer")
            Issue.record("expected an error")
        } catch let error as SigningCertificateError {
            guard case let .notACertificate(file, _) = error else { Issue.record("wrong case \(error)"); return }
            #expect(file == "certs/y.cer")
            #expect(error.localizedDescription.hasPrefix("'certs/y.cer' is not an X.509 certificate ("))
            #expect(error.localizedDescription.hasSuffix(
                "Give a .cer (DER) or .pem certificate, as downloaded from the Apple Developer portal."))
        }
    }

    @Test func keyThatDoesNotMatchIsRefused() throws {
        let (certificate, _) = try CertificateFixtures.identity()
        let other = try SigningPrivateKey.generate()
        let error = SigningCertificateError.keyDoesNotMatchCertificate(keyFile: "other.key", certificateFile: "dist.cer")
        #expect(throws: error) {
            try SigningIdentity(certificate: certificate, key: other, keyFile: "other.key", certificateFile: "dist.cer")
        }
        #expect(error.localizedDescription == "The private key 'other.key' does not belong to the certificate 'dist.cer': "
            + "their public keys differ. Use the key that made the certificate's signing request, or create a new certificate "
            + "for this key.")
    }
}
