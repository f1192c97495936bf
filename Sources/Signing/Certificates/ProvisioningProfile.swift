import Foundation
import PropertyList
import SwiftASN1

/// A provisioning profile (`.mobileprovision` / `.provisionprofile`): an XML property list in a
/// CMS SignedData envelope (RFC 5652), read without `security cms`.
///
/// Apple's signature on the envelope is NOT verified: Slipway reads the content for names, dates,
/// devices and certificates; Xcode and the device check the signature when the profile is used.
public struct ProvisioningProfile: Sendable {
    /// What the profile distributes for.
    public enum Kind: String, Sendable, CaseIterable {
        case development
        case adHoc = "ad-hoc"
        case appStore = "app-store"
        case enterprise
        case developerID = "developer-id"
    }

    /// The file's bytes (the CMS envelope), kept to be written out unchanged when installing.
    public let data: [UInt8]
    /// The profile's name ("Name").
    public let name: String
    /// Its UUID ("UUID"), the file name Xcode installs it under.
    public let uuid: String
    /// The team id ("TeamIdentifier"'s first entry).
    public let teamID: String
    /// The App ID's name ("AppIDName").
    public let appIDName: String?
    /// The bundle id: the entitlement `application-identifier` (or, on macOS,
    /// `com.apple.application-identifier`) without the team prefix; `*` for a wildcard profile.
    public let bundleID: String?
    /// When Apple made it ("CreationDate").
    public let creationDate: Date
    /// When it expires ("ExpirationDate").
    public let expirationDate: Date
    /// The platforms ("Platform": "iOS", "OSX", "tvOS", "xrOS", ...).
    public let platforms: [String]
    /// The registered devices' UDIDs ("ProvisionedDevices"); empty for App Store, enterprise and Developer ID.
    public let deviceUDIDs: [String]
    /// The SHA-1 fingerprints (upper-case hex) of the certificates it allows to sign ("DeveloperCertificates").
    public let certificateFingerprints: [String]
    /// Whether the entitlement `get-task-allow` (debugging) is granted.
    public let allowsDebugging: Bool
    /// The kind, from ProvisionsAllDevices, ProvisionedDevices, get-task-allow and, for a Mac
    /// profile without devices, whether its certificates are Developer ID ones.
    public let kind: Kind
    /// The entitlements the profile grants ("Entitlements"): what `slipway preflight` compares
    /// with a target's entitlements file.
    public let entitlements: [String: PropertyListValue]
    /// The certificates it holds that parse ("DeveloperCertificates"), for their expiry dates.
    public let certificates: [SigningCertificate]

    /// Reads a profile; `file` names it in errors.
    /// - Throws: `SigningCertificateError.notAProvisioningProfile` when the bytes are not a CMS
    ///   SignedData envelope with content, `.unreadableProfileContent` when the content is not a
    ///   property list with the keys above.
    public init(bytes: [UInt8], file: String) throws {
        let content = try Self.envelopeContent(bytes, file: file)
        let plist: [String: Any]
        let value: PropertyListValue
        do {
            // A profile comes from a checkout or signing storage: read within the budget.
            value = try PropertyListReader().read(content, file: file)
            let object = value.foundationObject
            guard let dictionary = object as? [String: Any] else {
                throw SigningCertificateError.unreadableProfileContent(file: file, detail: "the property list is not a dictionary")
            }
            plist = dictionary
        } catch let error as PropertyListError {
            guard case .overBudget = error else {
                throw SigningCertificateError.unreadableProfileContent(file: file, detail: "the content is not a property list")
            }
            throw SigningCertificateError.unreadableProfileContent(file: file, detail: error.reason)
        }
        func required<T>(_ key: String, as type: T.Type) throws -> T {
            guard let value = plist[key] as? T else {
                throw SigningCertificateError.unreadableProfileContent(file: file, detail: "'\(key)' is missing or not a \(T.self)")
            }
            return value
        }
        data = bytes
        name = try required("Name", as: String.self)
        uuid = try required("UUID", as: String.self)
        guard let team = try required("TeamIdentifier", as: [String].self).first else {
            throw SigningCertificateError.unreadableProfileContent(file: file, detail: "'TeamIdentifier' is empty")
        }
        teamID = team
        creationDate = try required("CreationDate", as: Date.self)
        expirationDate = try required("ExpirationDate", as: Date.self)
        appIDName = plist["AppIDName"] as? String
        platforms = plist["Platform"] as? [String] ?? []
        deviceUDIDs = plist["ProvisionedDevices"] as? [String] ?? []
        let certificates = plist["DeveloperCertificates"] as? [Data] ?? []
        certificateFingerprints = certificates.map { SigningCertificate.sha1Hex(Array($0)) }
        let entitlements = plist["Entitlements"] as? [String: Any] ?? [:]
        allowsDebugging = entitlements["get-task-allow"] as? Bool ?? false
        let appID = entitlements["application-identifier"] as? String
            ?? entitlements["com.apple.application-identifier"] as? String
        bundleID = appID.map { $0.hasPrefix(team + ".") ? String($0.dropFirst(team.count + 1)) : $0 }
        let parsed = certificates.compactMap { try? SigningCertificate(bytes: Array($0), file: file) }
        self.certificates = parsed
        self.entitlements = value["Entitlements"]?.dictionary ?? [:]
        let certificateKinds = parsed.map(\.kind)
        kind = Self.kind(allDevices: plist["ProvisionsAllDevices"] as? Bool ?? false, devices: deviceUDIDs,
                         debugging: allowsDebugging, certificateKinds: certificateKinds)
    }

    /// True when the profile expires before `now` + `days` days (or has already expired).
    public func expiresWithin(days: Int, now: Date = Date()) -> Bool {
        expirationDate < now.addingTimeInterval(TimeInterval(days) * 86_400)
    }

    /// True when the profile allows `certificate` to sign.
    public func includes(_ certificate: SigningCertificate) -> Bool {
        certificateFingerprints.contains(certificate.sha1Fingerprint)
    }

    static func kind(allDevices: Bool, devices: [String], debugging: Bool,
                     certificateKinds: [SigningCertificate.Kind]) -> Kind {
        if allDevices { return .enterprise }
        if !devices.isEmpty || debugging { return debugging ? .development : .adHoc }
        if certificateKinds.contains(.developerIDApplication) { return .developerID }
        return .appStore
    }

    /// The eContent of a CMS ContentInfo holding SignedData.
    static func envelopeContent(_ bytes: [UInt8], file: String) throws -> [UInt8] {
        let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 2]
        do {
            let root = try BER.parse(bytes)
            let contentInfo = try DERNodes.children(root, .sequence, "the envelope")
            let type = try DERNodes.oid(try DERNodes.child(contentInfo, 0, "the content type"), "the content type")
            guard type == signedDataOID else {
                throw DERNodes.Malformed(description: "its content type is \(type), not signed data")
            }
            let signedData = try DERNodes.children(
                try DERNodes.explicit(try DERNodes.child(contentInfo, 1, "the signed data"), 0, "the signed data"),
                .sequence, "the signed data")
            let encapsulated = try DERNodes.children(try DERNodes.child(signedData, 2, "the encapsulated content"),
                                                     .sequence, "the encapsulated content")
            let eContent = try DERNodes.explicit(try DERNodes.child(encapsulated, 1, "the content (the envelope is detached)"),
                                                 0, "the content")
            return try DERNodes.octets(eContent, .octetString, "the content")
        } catch let error as DERNodes.Malformed {
            throw SigningCertificateError.notAProvisioningProfile(file: file, detail: error.description)
        } catch {
            throw SigningCertificateError.notAProvisioningProfile(file: file, detail: "it is not DER")
        }
    }
}
