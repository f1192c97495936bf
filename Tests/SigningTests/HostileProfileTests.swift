import Foundation
import Signing
import Testing
import TestSupport
import TestThreads

/// A provisioning profile whose content is a binary-plist DAG bomb (8^12 values in under 200
/// bytes) is refused by the property-list budget, not expanded.
@Suite(.dedicatedThreads) struct HostileProfileTests {
    @Test func aDAGBombProfileIsRefusedByTheBudget() throws {
        let folder = try TemporaryDirectory()
        let authority = try TestCertificateAuthority()
        let (certificate, key) = try CertificateFixtures.identity(authority: authority)
        _ = try CertificateFixtures.write(HostileArchive.dagBombPlist(), "content.plist", in: folder)
        _ = try CertificateFixtures.write(certificate.der, "signer.cer", in: folder)
        _ = try folder.write("signer.key", key.pkcs8PEM)
        try CertificateFixtures.openssl(["x509", "-inform", "DER", "-in", "signer.cer", "-out", "signer.pem"], in: folder)
        try CertificateFixtures.openssl(["cms", "-sign", "-nodetach", "-binary", "-in", "content.plist", "-signer", "signer.pem",
                                         "-inkey", "signer.key", "-outform", "DER", "-out", "bomb.mobileprovision"], in: folder)
        let bytes = try CertificateFixtures.read(folder.path + "/bomb.mobileprovision")
        #expect {
            try ProvisioningProfile(bytes: bytes, file: "bomb.mobileprovision")
        } throws: { error in
            error.localizedDescription == "The provisioning profile 'bomb.mobileprovision' does not hold a property list Slipway can read "
                + "(it expands to more than 1000000 values (each shared reference counted every time it is used); "
                + "the file may be hostile, so slipway stopped reading it). Download the profile again."
        }
    }
}
