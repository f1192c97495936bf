import Foundation
import SwiftASN1
import X509

/// A PKCS#10 certificate signing request, as Apple's Certificate Assistant makes it for
/// "Request a Certificate From a Certificate Authority": subject e-mail address, common name and
/// country, signed with SHA-256 and RSA by the key it asks a certificate for.
public struct SigningRequest: Sendable {
    /// The request, DER.
    public let der: [UInt8]

    /// The request as PEM (`-----BEGIN CERTIFICATE REQUEST-----`), what App Store Connect's
    /// certificates endpoint takes as `csrContent` (with or without the armour lines).
    public var pem: String {
        PEMDocument(type: "CERTIFICATE REQUEST", derBytes: der).pemString
    }

    /// Makes and signs a request for `key`.
    /// - Parameters:
    ///   - commonName: the subject's common name (Certificate Assistant puts the person's name).
    ///   - emailAddress: the subject's e-mail address, or nil to leave it out.
    ///   - countryCode: a two-letter ISO 3166 country code, or nil to leave it out.
    /// - Throws: `SigningCertificateError.encodingFailed`.
    public init(commonName: String, emailAddress: String?, countryCode: String?, key: SigningPrivateKey) throws {
        do {
            let subject = try DistinguishedName {
                if let emailAddress { EmailAddress(emailAddress) }
                CommonName(commonName)
                if let countryCode { CountryName(countryCode) }
            }
            let request = try CertificateSigningRequest(
                version: .v1, subject: subject, privateKey: Certificate.PrivateKey(key.rsa),
                attributes: CertificateSigningRequest.Attributes(), signatureAlgorithm: .sha256WithRSAEncryption)
            var serializer = DER.Serializer()
            try serializer.serialize(request)
            der = serializer.serializedBytes
        } catch {
            throw SigningCertificateError.encodingFailed(subject: "a certificate signing request for '\(commonName)'",
                                                         detail: "\(error)")
        }
    }
}
