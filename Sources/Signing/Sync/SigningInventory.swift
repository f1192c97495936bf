import Basics
import Foundation

/// What a storage holds, for `signing list`: certificates and profiles with their dates, and
/// which profiles include which certificates and devices.
public struct SigningInventory: Sendable {
    /// A stored certificate.
    public struct Certificate: Sendable {
        public var path: String
        public var id: String
        public var kind: SigningCertificateKind
        public var name: String
        public var teamID: String
        public var sha1: String
        public var expires: Date
        public var hasKey: Bool
    }

    /// A stored profile.
    public struct Profile: Sendable {
        public var path: String
        public var name: String
        public var uuid: String
        public var kind: ProvisioningProfile.Kind
        public var bundleID: String
        public var teamID: String
        public var expires: Date
        /// The ids of the stored certificates it includes.
        public var certificateIDs: [String]
        /// SHA-1s of included certificates the storage does not hold.
        public var otherCertificates: [String]
        public var devices: [String]
    }

    public var storage: String
    public var format: String
    public var certificates: [Certificate]
    public var profiles: [Profile]
    /// Push certificates (`push/`), with what `slipway push check` shows of them.
    public var pushCertificates: [PushCredentialReport] = []
    /// Expired, or expiring within the window.
    public var warnings: [String]

    /// Reads and decrypts every certificate and profile in `storage`.
    /// - Throws: `SigningStorageError`, `SigningCertificateError`.
    public static func read(_ storage: EncryptedSigningStorage, now: Date = Date(), warningDays: Int = 30) async throws -> SigningInventory {
        let files = try await storage.list()
        let certificates = try await storage.storedCertificates(kind: nil, files: files).map {
            Certificate(path: $0.certificatePath, id: $0.id, kind: $0.kind, name: $0.certificate.commonName ?? "",
                        teamID: $0.certificate.teamID ?? "", sha1: $0.certificate.sha1Fingerprint,
                        expires: $0.certificate.notValidAfter, hasKey: $0.hasKey)
        }
        let bySHA1 = Dictionary(certificates.map { ($0.sha1.uppercased(), $0.id) }, uniquingKeysWith: { first, _ in first })
        let profiles = try await storage.storedProfiles(kind: nil, files: files).map { stored in
            let fingerprints = stored.profile.certificateFingerprints.map { $0.uppercased() }
            return Profile(path: stored.path, name: stored.profile.name, uuid: stored.profile.uuid, kind: stored.profile.kind,
                           bundleID: stored.profile.bundleID ?? "", teamID: stored.profile.teamID,
                           expires: stored.profile.expirationDate, certificateIDs: fingerprints.compactMap { bySHA1[$0] },
                           otherCertificates: fingerprints.filter { bySHA1[$0] == nil }, devices: stored.profile.deviceUDIDs)
        }
        let push = try await storage.storedPushCertificates(files: files)
        let soon = now.addingTimeInterval(Double(warningDays) * 86_400)
        var warnings: [String] = []
        for item in certificates.map({ ($0.path, $0.expires) }) + profiles.map({ ($0.path, $0.expires) }) where item.1 <= soon {
            warnings.append(item.1 <= now ? "\(item.0) expired on \(DateText.day(item.1))"
                : "\(item.0) expires on \(DateText.day(item.1)) (within \(warningDays) days): 'slipway signing sync --renew' replaces it")
        }
        for stored in push where stored.push.certificate.notValidAfter <= soon {
            let expiry = stored.push.certificate.notValidAfter
            warnings.append(expiry <= now ? "\(stored.path) expired on \(DateText.day(expiry))"
                : "\(stored.path) expires on \(DateText.day(expiry)) (within \(warningDays) days): create a new push certificate "
                    + "and 'slipway signing push add' it, or switch to a .p8 key")
        }
        var inventory = SigningInventory(storage: storage.storage.displayName, format: storage.format.rawValue, certificates: certificates,
                                         profiles: profiles, warnings: warnings)
        inventory.pushCertificates = push.map { PushCredentialCheck.entry($0.push, file: $0.path) }
        inventory.expiredPush = push.filter { $0.push.certificate.notValidAfter <= now }.map { PushCredentialCheck.entry($0.push, file: $0.path) }
        return inventory
    }

    /// The stored push certificates that have expired (`signing list` fails on them).
    public var expiredPushCertificates: [PushCredentialReport] { expiredPush }
    private var expiredPush: [PushCredentialReport] = []

    /// The inventory for people.
    public var text: String {
        var lines = ["\(storage) (\(format) format)"]
        lines.append(certificates.isEmpty ? "certificates: none" : "certificates:")
        for c in certificates {
            lines.append("  \(c.kind.rawValue)  \(c.id)  \(c.name)  expires \(DateText.day(c.expires))"
                + (c.hasKey ? "" : "  (no private key)"))
        }
        lines.append(profiles.isEmpty ? "profiles: none" : "profiles:")
        for p in profiles {
            lines.append("  \(p.kind.rawValue)  \(p.bundleID)  '\(p.name)'  \(p.uuid)  expires \(DateText.day(p.expires))")
            let certificates = p.certificateIDs + p.otherCertificates.map { "SHA-1 \($0) (not in the storage)" }
            lines.append("    certificates: " + (certificates.isEmpty ? "none" : certificates.joined(separator: ", ")))
            if !p.devices.isEmpty { lines.append("    devices (\(p.devices.count)): " + p.devices.joined(separator: ", ")) }
        }
        if !pushCertificates.isEmpty { lines.append("push certificates:") }
        for push in pushCertificates {
            lines.append("  \(push.environment)  \(push.bundleID ?? "?")  topics \(push.topics.map(\.name).joined(separator: ", "))  "
                + "expires \(push.expires ?? "?")")
        }
        lines += warnings.map { "warning: " + $0 }
        return lines.joined(separator: "\n")
    }

    /// The inventory as JSON (sorted keys, ISO 8601 dates).
    public var json: [String: Any] {
        return [
            "storage": storage, "format": format, "warnings": warnings,
            "certificates": certificates.map {
                ["path": $0.path, "id": $0.id, "kind": $0.kind.rawValue, "name": $0.name, "teamId": $0.teamID, "sha1": $0.sha1,
                 "expires": DateText.iso8601($0.expires), "hasKey": $0.hasKey] as [String: Any]
            },
            "profiles": profiles.map {
                ["path": $0.path, "name": $0.name, "uuid": $0.uuid, "kind": $0.kind.rawValue, "bundleId": $0.bundleID,
                 "teamId": $0.teamID, "expires": DateText.iso8601($0.expires), "certificateIds": $0.certificateIDs,
                 "otherCertificates": $0.otherCertificates, "devices": $0.devices] as [String: Any]
            },
            "pushCertificates": pushCertificates.map {
                ["path": $0.file, "environment": $0.environment, "bundleId": $0.bundleID ?? "", "name": $0.subject ?? "",
                 "teamId": $0.teamID ?? "", "topics": $0.topics.map(\.name), "expires": $0.expires ?? ""] as [String: Any]
            },
        ]
    }
}
