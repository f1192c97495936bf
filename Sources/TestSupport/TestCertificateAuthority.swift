import Crypto
import Foundation
import SwiftASN1
import X509

/// A throwaway certificate authority for tests (and, later, for the App Store Connect contract
/// fake): a P-256 root that issues certificates shaped like Apple's signing certificates
/// (common name "<Kind>: <Name> (<TEAM>)", organizational unit = team id) for a given public key
/// or certificate signing request. NOT Apple's chain: nothing verifies against Apple's roots.
public struct TestCertificateAuthority: Sendable {
    /// The CA's own certificate.
    public let certificate: Certificate
    /// The CA's private key.
    public let privateKey: Certificate.PrivateKey

    /// Makes a new self-signed root named `name`, valid from a day ago for ten years.
    public init(name: String = "Slipway Test CA", now: Date = Date()) throws {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let subject = try DistinguishedName {
            CommonName(name)
            OrganizationName("Slipway tests")
        }
        certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
            notValidBefore: now.addingTimeInterval(-86_400), notValidAfter: now.addingTimeInterval(3_650 * 86_400),
            issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                KeyUsage(digitalSignature: true, keyCertSign: true)
            },
            issuerPrivateKey: key)
        privateKey = key
    }

    /// Issues a code signing certificate for `publicKey`.
    /// - Parameters:
    ///   - commonName: e.g. "Apple Distribution: Example Ltd (AB12CD34EF)".
    ///   - teamID: the organizational unit, as Apple sets it.
    public func issue(publicKey: Certificate.PublicKey, commonName: String, teamID: String,
                      notValidBefore: Date, notValidAfter: Date) throws -> Certificate {
        let subject = try DistinguishedName {
            CommonName(commonName)
            OrganizationalUnitName(teamID)
            OrganizationName("Slipway test team")
            CountryName("US")
        }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: notValidBefore, notValidAfter: notValidAfter,
            issuer: certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.codeSigning])
            },
            issuerPrivateKey: privateKey)
    }

    /// Issues a certificate for the key of a PKCS#10 request (DER or PEM), after checking the
    /// request's own signature, as Apple does with `csrContent`.
    public func issue(requestPEMOrDER bytes: [UInt8], commonName: String, teamID: String,
                      notValidBefore: Date, notValidAfter: Date) throws -> Certificate {
        let request: CertificateSigningRequest
        if let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN") {
            request = try CertificateSigningRequest(pemEncoded: text)
        } else {
            request = try CertificateSigningRequest(derEncoded: bytes)
        }
        guard request.publicKey.isValidSignature(request.signature, for: request) else {
            throw InvalidRequest()
        }
        return try issue(publicKey: request.publicKey, commonName: commonName, teamID: teamID,
                         notValidBefore: notValidBefore, notValidAfter: notValidAfter)
    }

    /// The certificate signing request's signature does not verify.
    public struct InvalidRequest: Error {}

    /// The CA's private key as PEM (P-256; handed to the App Store Connect contract fake, which signs with it).
    public var privateKeyPEM: String {
        get throws { try privateKey.serializeAsPEM().pemString }
    }

    /// The CA's certificate as PEM.
    public var certificatePEM: String {
        get throws { try certificate.serializeAsPEM().pemString }
    }

    /// DER of `certificate`.
    public static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
