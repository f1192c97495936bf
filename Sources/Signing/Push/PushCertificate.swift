import Foundation
import SwiftASN1
import X509

/// An Apple Push Services certificate (certificate-based APNs) with what Slipway checks: the
/// environments (Apple's extensions 1.2.840.113635.100.6.3.1 development and .3.2 production; the
/// "Apple Push Services" universal certificate carries both), the topics (extension .3.6) and the
/// bundle id (the subject's UID). Read from a `.p12` with its private key.
public struct PushCertificate: Sendable {
    /// Which APNs environments a certificate may use.
    public enum Environment: String, Sendable, Codable {
        /// api.sandbox.push.apple.com only ("Apple Development IOS Push Services").
        case sandbox
        /// api.push.apple.com only ("Apple Production IOS Push Services").
        case production
        /// Both ("Apple Push Services").
        case both
    }

    /// One topic and the services Apple lists for it ("app", "voip", "complication", ...).
    public struct Topic: Sendable, Hashable, Codable {
        /// The topic: the bundle id, or it with a suffix such as `.voip`.
        public let name: String
        /// The services, as the extension lists them.
        public let services: [String]

        /// A topic and its services.
        public init(name: String, services: [String]) {
            self.name = name
            self.services = services
        }
    }

    /// Apple's development (sandbox) push extension.
    public static let developmentOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 3, 1]
    /// Apple's production push extension.
    public static let productionOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 3, 2]
    /// Apple's topics extension of the universal push certificate.
    public static let topicsOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 3, 6]
    /// The subject's UID (0.9.2342.19200300.100.1.1), which Apple sets to the bundle id.
    public static let userIDOID: ASN1ObjectIdentifier = [0, 9, 2342, 19_200_300, 100, 1, 1]

    /// The certificate with its key.
    public let identity: SigningIdentity
    /// The environments.
    public let environment: Environment
    /// The bundle id (subject UID), when present.
    public let bundleID: String?
    /// The topics: from extension .3.6, else the bundle id alone (service "app").
    public let topics: [Topic]

    /// The largest `.p12` read.
    public static let fileLimit = 1 << 20

    /// The certificate.
    public var certificate: SigningCertificate { identity.certificate }

    /// Reads `path` with `password` and checks it is a push certificate.
    /// - Throws: `PushCredentialError` (file problems, not a push certificate) or
    ///   `SigningCertificateError` (wrong password, unreadable .p12, key not matching).
    public static func load(file path: String, password: String) throws -> PushCertificate {
        let bytes = try PushFiles.read(path, limit: fileLimit)
        return try PushCertificate(identity: try SigningIdentity(pkcs12: bytes, password: password, file: path), file: path)
    }

    /// Checks that `identity` is a push certificate; `file` names it in errors.
    /// - Throws: `PushCredentialError.notAPushCertificate`.
    public init(identity: SigningIdentity, file: String) throws {
        self.identity = identity
        let certificate = identity.certificate.certificate
        let oids = Set(certificate.extensions.map(\.oid))
        switch (oids.contains(Self.developmentOID), oids.contains(Self.productionOID)) {
        case (true, true): environment = .both
        case (true, false): environment = .sandbox
        case (false, true): environment = .production
        case (false, false):
            throw PushCredentialError.notAPushCertificate(file: file, commonName: identity.certificate.commonName ?? "no common name")
        }
        bundleID = Self.subjectUID(certificate)
        let listed = certificate.extensions.first { $0.oid == Self.topicsOID }.flatMap { Self.topics(in: Array($0.value)) } ?? []
        topics = listed.isEmpty ? (bundleID.map { [Topic(name: $0, services: ["app"])] } ?? []) : listed
    }

    /// The topics listed in the value of extension .3.6: a SEQUENCE alternating a topic string
    /// and a SEQUENCE of service strings (`com.example.app`, {`app`}, `com.example.app.voip`,
    /// {`voip`}, ...). Nil when the value is not shaped so.
    public static func topics(in value: [UInt8]) -> [Topic]? {
        guard let root = try? DER.parse(value), case .constructed(let children) = root.content,
              root.identifier == .sequence else { return nil }
        var result: [Topic] = []
        for node in children {
            if let name = string(node) {
                result.append(Topic(name: name, services: []))
            } else if node.identifier == .sequence, case .constructed(let services) = node.content, let last = result.popLast() {
                result.append(Topic(name: last.name, services: last.services + services.compactMap(string)))
            }
        }
        return result
    }

    /// Whether a notification for `topic` may be sent with this certificate.
    public func allows(topic: String) -> Bool { topics.contains { $0.name == topic } }

    private static func string(_ node: ASN1Node) -> String? {
        if let value = try? ASN1UTF8String(derEncoded: node) { return String(value) }
        if let value = try? ASN1PrintableString(derEncoded: node) { return String(value) }
        if let value = try? ASN1IA5String(derEncoded: node) { return String(value) }
        return nil
    }

    private static func subjectUID(_ certificate: Certificate) -> String? {
        for rdn in certificate.subject {
            for attribute in rdn where attribute.type == userIDOID { return String(attribute.value) }
        }
        return nil
    }
}
