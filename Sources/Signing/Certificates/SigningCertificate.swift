import Crypto
import Foundation
import SwiftASN1
import X509

/// A code signing certificate (what the Apple Developer portal issues), read from DER (`.cer`)
/// or PEM, with the facts `slipway signing` shows and matches on.
public struct SigningCertificate: Sendable {
    /// The kind of certificate, from the prefix of its common name ("Apple Distribution: ...").
    public enum Kind: String, Sendable, CaseIterable {
        case appleDevelopment = "Apple Development"
        case appleDistribution = "Apple Distribution"
        case iPhoneDeveloper = "iPhone Developer"
        case iPhoneDistribution = "iPhone Distribution"
        case macDeveloper = "Mac Developer"
        case developerIDApplication = "Developer ID Application"
        case developerIDInstaller = "Developer ID Installer"
        case macAppDistribution = "3rd Party Mac Developer Application"
        case macInstallerDistribution = "3rd Party Mac Developer Installer"
        case other = "other"

        /// The kind whose prefix `commonName` starts with, or `.other`.
        public init(commonName: String) {
            self = Kind.allCases.first { $0 != .other && commonName.hasPrefix($0.rawValue + ":") } ?? .other
        }
    }

    /// The parsed certificate.
    public let certificate: Certificate
    /// The certificate's DER bytes (what a `.cer` file holds).
    public let der: [UInt8]

    /// Reads a DER or PEM certificate; `file` names it in errors.
    /// - Throws: `SigningCertificateError.notACertificate`.
    public init(bytes: [UInt8], file: String) throws {
        do {
            if let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN") {
                let document = try PEMDocument(pemString: text)
                guard document.discriminator == "CERTIFICATE" else {
                    throw SigningCertificateError.notACertificate(
                        file: file, detail: "the PEM block is '\(document.discriminator)', not 'CERTIFICATE'")
                }
                der = document.derBytes
            } else {
                der = bytes
            }
            certificate = try Certificate(derEncoded: der)
        } catch let error as SigningCertificateError {
            throw error
        } catch {
            throw SigningCertificateError.notACertificate(file: file, detail: "\(error)")
        }
    }

    /// Wraps a parsed certificate.
    public init(_ certificate: Certificate) throws {
        self.certificate = certificate
        var serializer = DER.Serializer()
        do {
            try serializer.serialize(certificate)
        } catch {
            throw SigningCertificateError.encodingFailed(subject: "a certificate's DER form", detail: "\(error)")
        }
        der = serializer.serializedBytes
    }

    /// The subject's common name, e.g. "Apple Distribution: Example Ltd (AB12CD34EF)".
    public var commonName: String? { attribute(.RDNAttributeType.commonName) }

    /// The team id: the subject's organizational unit, as Apple issues them.
    public var teamID: String? { attribute(.RDNAttributeType.organizationalUnitName) }

    /// The kind, from the common name.
    public var kind: Kind { Kind(commonName: commonName ?? "") }

    /// The serial number in upper-case hex, without separators.
    public var serialNumber: String {
        certificate.serialNumber.bytes.map { String(format: "%02X", $0) }.joined()
    }

    /// The first instant the certificate is valid.
    public var notValidBefore: Date { certificate.notValidBefore }

    /// The last instant the certificate is valid.
    public var notValidAfter: Date { certificate.notValidAfter }

    /// The SHA-1 of the DER, upper-case hex: what `security find-identity` shows and what
    /// provisioning profiles' DeveloperCertificates are matched by.
    public var sha1Fingerprint: String { Self.sha1Hex(der) }

    /// True when the certificate expires before `now` + `days` days (or has already expired):
    /// the 30-day warning of `slipway signing list`.
    public func expiresWithin(days: Int, now: Date = Date()) -> Bool {
        notValidAfter < now.addingTimeInterval(TimeInterval(days) * 86_400)
    }

    /// True when `key` is this certificate's key (their public keys are equal).
    public func matches(_ key: SigningPrivateKey) -> Bool {
        certificate.publicKey == key.publicKey
    }

    /// Throws unless `key` is this certificate's key; `keyFile` and `certificateFile` name them.
    /// - Throws: `SigningCertificateError.keyDoesNotMatchCertificate`.
    public func checkMatches(_ key: SigningPrivateKey, keyFile: String, certificateFile: String) throws {
        guard matches(key) else {
            throw SigningCertificateError.keyDoesNotMatchCertificate(keyFile: keyFile, certificateFile: certificateFile)
        }
    }

    static func sha1Hex(_ bytes: [UInt8]) -> String {
        Insecure.SHA1.hash(data: bytes).map { String(format: "%02X", $0) }.joined()
    }

    private func attribute(_ type: ASN1ObjectIdentifier) -> String? {
        for rdn in certificate.subject {
            for attribute in rdn where attribute.type == type {
                return String(attribute.value)
            }
        }
        return nil
    }
}
