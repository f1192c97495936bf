import Basics
import Foundation

/// What `slipway push check` found out about a `.p8` key or a push `.p12`: nothing secret.
public struct PushCredentialReport: Sendable, Encodable {
    /// `key` (token-based, .p8) or `certificate` (certificate-based, .p12).
    public let kind: String
    /// The file checked.
    public let file: String
    /// The key id (keys only).
    public let keyID: String?
    /// The team id: given (keys) or the certificate's organizational unit.
    public let teamID: String?
    /// The certificate's common name.
    public let subject: String?
    /// The bundle id (certificates: subject UID).
    public let bundleID: String?
    /// sandbox, production or both (a key works with both).
    public let environment: String
    /// The topics the credential may send to (empty for a key: any of the team's apps).
    public let topics: [PushCertificate.Topic]
    /// The certificate's last valid day (ISO 8601); nil for a key, which does not expire.
    public let expires: String?
    /// Warnings (expiry within 30 days).
    public let warnings: [String]

    /// The human form, one fact a line.
    public var text: String {
        var lines = ["\(file): valid APNs \(kind == "key" ? "auth key (token-based)" : "push certificate (certificate-based)")"]
        if let keyID { lines.append("  key id:      \(keyID)") }
        if let teamID { lines.append("  team id:     \(teamID)") }
        if let subject { lines.append("  subject:     \(subject)") }
        if let bundleID { lines.append("  bundle id:   \(bundleID)") }
        lines.append("  environment: \(environment == "both" ? "sandbox and production" : environment)")
        if kind == "key" {
            lines.append("  topics:      any app of team \(teamID ?? "?") (the key is not tied to one app)")
        } else {
            for topic in topics {
                lines.append("  topic:       \(topic.name)\(topic.services.isEmpty ? "" : " (\(topic.services.joined(separator: ", ")))")")
            }
        }
        lines.append("  expires:     \(expires ?? "never (keys do not expire; revoke them in the portal)")")
        return (lines + warnings.map { "warning: " + $0 }).joined(separator: "\n")
    }

    /// The JSON form (sorted keys, `version` 1).
    public func json() throws -> String {
        struct Versioned: Encodable {
            let version = 1
            let report: PushCredentialReport
            func encode(to encoder: any Encoder) throws {
                try report.encode(to: encoder)
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(version, forKey: .version)
            }
            enum Key: String, CodingKey { case version }
        }
        return String(decoding: try JSONFormatting.encoder().encode(Versioned(report: self)), as: UTF8.self)
    }
}

/// `slipway push check`: reads a credential, checks it as APNs would, and reports it.
public enum PushCredentialCheck {
    /// How close to expiry a certificate is warned about.
    public static let warningDays = 30

    /// Checks a `.p8` key; `topic`, when given, is checked for its form only (a key may send to
    /// every app of its team, which only APNs knows).
    /// - Throws: `PushCredentialError`.
    public static func key(file: String, keyID: String?, teamID: String, topic: String?) throws -> PushCredentialReport {
        let key = try APNsAuthKey.load(file: file, keyID: keyID, teamID: teamID)
        if let topic { try APNsTopic.check(topic) }
        return PushCredentialReport(kind: "key", file: file, keyID: key.keyID, teamID: key.teamID, subject: nil,
                                    bundleID: topic, environment: "both", topics: [], expires: nil, warnings: [])
    }

    /// Checks a push `.p12`: a push certificate, not expired (warned within 30 days), its key
    /// matching, and `topic` (when given) among its topics.
    /// - Throws: `PushCredentialError` or `SigningCertificateError`.
    public static func certificate(file: String, password: String, topic: String?, now: Date) throws -> PushCredentialReport {
        let push = try PushCertificate.load(file: file, password: password)
        return try report(push, file: file, topic: topic, now: now)
    }

    /// The report of a read push certificate (also `signing list`'s entry).
    /// - Throws: `PushCredentialError.expired`, `.topicNotInCertificate`.
    public static func report(_ push: PushCertificate, file: String, topic: String?, now: Date) throws -> PushCredentialReport {
        let expiry = push.certificate.notValidAfter
        let day = DateText.day(expiry)
        guard expiry > now else { throw PushCredentialError.expired(file: file, date: day) }
        if let topic {
            try APNsTopic.check(topic)
            guard push.allows(topic: topic) else {
                throw PushCredentialError.topicNotInCertificate(file: file, topic: topic, topics: push.topics.map(\.name))
            }
        }
        var warnings: [String] = []
        if push.certificate.expiresWithin(days: warningDays, now: now) {
            let days = Int((expiry.timeIntervalSince(now) / 86_400).rounded(.up))
            warnings.append("the push certificate in '\(file)' expires on \(day) (in \(days) day\(days == 1 ? "" : "s")); "
                + "create a new one in Certificates, Identifiers & Profiles, or switch to a .p8 key")
        }
        return PushCredentialReport(kind: "certificate", file: file, keyID: nil, teamID: push.certificate.teamID,
                                    subject: push.certificate.commonName, bundleID: push.bundleID,
                                    environment: push.environment.rawValue, topics: push.topics, expires: day, warnings: warnings)
    }

    /// The report of a stored push certificate, expired or not (`signing list` warns instead).
    public static func entry(_ push: PushCertificate, file: String) -> PushCredentialReport {
        PushCredentialReport(kind: "certificate", file: file, keyID: nil, teamID: push.certificate.teamID,
                             subject: push.certificate.commonName, bundleID: push.bundleID, environment: push.environment.rawValue,
                             topics: push.topics, expires: DateText.day(push.certificate.notValidAfter), warnings: [])
    }
}

/// The form of an `apns-topic`: a bundle id, optionally with Apple's suffixes.
public enum APNsTopic {
    /// - Throws: `PushCredentialError.malformedTopic` unless `topic` is letters, digits, '-' and
    ///   '.', not starting or ending with '.', at most 255 characters.
    public static func check(_ topic: String) throws {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-."))
        guard !topic.isEmpty, topic.count <= 255, !topic.hasPrefix("."), !topic.hasSuffix("."), !topic.contains(".."),
              topic.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) }) else {
            throw PushCredentialError.malformedTopic(topic)
        }
    }
}
