import Crypto
import Foundation
import SwiftASN1
import X509

extension TestCertificateAuthority {
    /// Which of Apple's push extensions a test push certificate carries.
    public enum PushEnvironment: Sendable {
        /// 1.2.840.113635.100.6.3.1 ("Apple Development IOS Push Services: <bundle id>").
        case development
        /// 1.2.840.113635.100.6.3.2 ("Apple Production IOS Push Services: <bundle id>").
        case production
        /// Both, and the topics extension .3.6 ("Apple Push Services: <bundle id>").
        case universal
    }

    /// Issues a certificate shaped like Apple's push certificates: subject UID = `bundleID`, CN as
    /// Apple names them, OU = team id, Apple's environment extensions (value: DER NULL) and, for
    /// `.universal`, the topics extension: a SEQUENCE alternating each topic (UTF8String) and a
    /// SEQUENCE of its services ("app", "voip", "complication").
    public func issuePush(publicKey: Certificate.PublicKey, bundleID: String, environment: PushEnvironment,
                          teamID: String = "AB12CD34EF", extraTopics: [(String, String)] = [],
                          notValidBefore: Date, notValidAfter: Date) throws -> Certificate {
        let prefix: String
        switch environment {
        case .development: prefix = "Apple Development IOS Push Services"
        case .production: prefix = "Apple Production IOS Push Services"
        case .universal: prefix = "Apple Push Services"
        }
        let subject = try DistinguishedName {
            UserID(value: bundleID)
            CommonName("\(prefix): \(bundleID)")
            OrganizationalUnitName(teamID)
            OrganizationName("Slipway test team")
            CountryName("US")
        }
        let null: [UInt8] = [0x05, 0x00]
        var apple: [Certificate.Extension] = []
        if environment != .production { apple.append(Certificate.Extension(oid: [1, 2, 840, 113_635, 100, 6, 3, 1], critical: true, value: null[...])) }
        if environment != .development { apple.append(Certificate.Extension(oid: [1, 2, 840, 113_635, 100, 6, 3, 2], critical: true, value: null[...])) }
        if environment == .universal {
            apple.append(Certificate.Extension(oid: [1, 2, 840, 113_635, 100, 6, 3, 6], critical: false,
                                               value: try Self.topicsValue([(bundleID, "app")] + extraTopics)[...]))
        }
        var extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.clientAuth])
        }
        for item in apple { try extensions.append(item) }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: notValidBefore, notValidAfter: notValidAfter,
            issuer: certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions, issuerPrivateKey: privateKey)
    }

    /// The DER value of Apple's topics extension for `topics` (topic, service) pairs.
    public static func topicsValue(_ topics: [(String, String)]) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { outer in
            for (topic, service) in topics {
                try outer.serialize(ASN1UTF8String(topic))
                try outer.appendConstructedNode(identifier: .sequence) { inner in try inner.serialize(ASN1UTF8String(service)) }
            }
        }
        return serializer.serializedBytes
    }

    /// A TLS server certificate for 127.0.0.1 and localhost with a new P-256 key (PEM pair), for
    /// loopback HTTPS fakes whose clients trust this CA.
    public func issueLoopbackServer(now: Date = Date()) throws -> (certificatePEM: String, keyPEM: String) {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let subject = try DistinguishedName { CommonName("127.0.0.1") }
        let server = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
            notValidBefore: now.addingTimeInterval(-3_600), notValidAfter: now.addingTimeInterval(86_400),
            issuer: certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])), .dnsName("localhost")])
            },
            issuerPrivateKey: privateKey)
        return (try server.serializeAsPEM().pemString, try key.serializeAsPEM().pemString)
    }
}

/// The subject's UID attribute (0.9.2342.19200300.100.1.1), where Apple puts a push certificate's bundle id.
private struct UserID: RelativeDistinguishedNameConvertible {
    let value: String
    func makeRDN() throws -> RelativeDistinguishedName {
        RelativeDistinguishedName(.init(type: [0, 9, 2342, 19_200_300, 100, 1, 1], utf8String: value))
    }
}
