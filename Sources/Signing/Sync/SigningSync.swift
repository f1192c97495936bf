import AppleAPI
import Basics
import Foundation

/// fastlane match's job: makes sure a valid certificate of the right kind, and for each bundle id
/// a profile that includes it (and, for development and ad hoc, every enabled device), exist on
/// App Store Connect and in the encrypted storage; creates them when missing, expired or (with
/// `renew`) expiring soon. A read-only run only reads the storage: it needs no API key, never
/// touches Apple or the storage, and fails clearly when something is missing.
public struct SigningSync: Sendable {
    /// The storage, opened.
    public let storage: EncryptedSigningStorage
    /// The storage's passphrase (also protects the PKCS#12 files of Slipway's format).
    let passphrase: String
    /// Apple; nil for a read-only run.
    let portal: (any SigningPortal)?
    /// Progress lines.
    let log: @Sendable (String) -> Void

    /// Creates a sync over `storage`; `portal` may be nil only for read-only runs.
    public init(storage: EncryptedSigningStorage, passphrase: String, portal: (any SigningPortal)?,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.storage = storage
        self.passphrase = passphrase
        self.portal = portal
        self.log = log
    }

    /// Runs the sync.
    /// - Throws: `SigningSyncError`, `SigningStorageError`, `SigningCertificateError`, `AppStoreConnectError`.
    public func run(_ request: SigningSyncRequest) async throws -> SigningSyncResult {
        guard !request.bundleIDs.isEmpty else { throw SigningSyncError.noBundleIDs }
        guard let profileType = AppleSigningTypes.profileType(request.type, platform: request.platform) else {
            throw SigningSyncError.unsupportedPlatform(type: request.type, platform: request.platform)
        }
        let files = try await storage.list()
        guard !request.readOnly, let portal else {
            return try await readOnlyRun(request, files: files)
        }
        var run = SigningSyncRun(sync: self, portal: portal, request: request, profileType: profileType)
        return try await run.perform(files: files)
    }

    // MARK: read-only

    private func readOnlyRun(_ request: SigningSyncRequest, files: [String]) async throws -> SigningSyncResult {
        let kind = request.type.certificateKind
        let stored = try await storage.storedCertificates(kind: kind, files: files).filter(\.hasKey)
        let usable = stored.filter { $0.certificate.notValidAfter > request.now }
        guard let chosen = usable.max(by: { $0.certificate.notValidAfter < $1.certificate.notValidAfter }) else {
            if let newest = stored.max(by: { $0.certificate.notValidAfter < $1.certificate.notValidAfter }) {
                throw SigningSyncError.certificateExpiredReadOnly(file: storage.fileName(newest.certificatePath),
                                                                  expired: newest.certificate.notValidAfter)
            }
            throw SigningSyncError.certificateMissingReadOnly(kind: kind, storage: storage.storage.displayName)
        }
        log("certificate \(chosen.id) (\(chosen.certificate.commonName ?? "?")) from the storage")
        let identity = try await storage.identity(of: chosen, passphrase: passphrase)
        var profiles: [SyncedProfile] = []
        for bundleID in request.bundleIDs {
            let path = SigningLayout.profilePath(kind: request.type.profileKind, bundleID: bundleID, platform: request.platform.fileSuffix)
            guard files.contains(path) else {
                throw SigningSyncError.profileMissingReadOnly(file: storage.fileName(path), bundleID: bundleID)
            }
            let profile = try ProvisioningProfile(bytes: try await storage.read(path), file: storage.fileName(path))
            if let reason = Self.problem(of: profile, bundleID: bundleID, certificate: identity.certificate, request: request) {
                throw SigningSyncError.profileUnusableReadOnly(file: storage.fileName(path), reason: reason)
            }
            profiles.append(SyncedProfile(bundleID: bundleID, path: path, profile: profile))
        }
        return SigningSyncResult(certificateID: chosen.id, identity: identity, profiles: profiles, actions: [],
                                 warnings: Self.expiryWarnings(identity.certificate, profiles: profiles, request: request))
    }

    // MARK: shared checks

    /// Why `profile` cannot be used for `bundleID` with `certificate`, or nil when it can
    /// (devices and Apple's state are checked separately, where Apple is asked).
    static func problem(of profile: ProvisioningProfile, bundleID: String, certificate: SigningCertificate,
                        request: SigningSyncRequest) -> String? {
        if profile.expirationDate <= request.now {
            return "it expired on \(DateText.day(profile.expirationDate))"
        }
        if let profileBundle = profile.bundleID, profileBundle != bundleID {
            return "it is for '\(profileBundle)', not '\(bundleID)'"
        }
        if !profile.includes(certificate) {
            return "it was made for another certificate (SHA-1 \(profile.certificateFingerprints.joined(separator: ", "))), not the "
                + "storage's '\(certificate.commonName ?? "?")' (SHA-1 \(certificate.sha1Fingerprint))"
        }
        return nil
    }

    /// A warning for each of `certificate` and `profiles` that expires within the request's window.
    static func expiryWarnings(_ certificate: SigningCertificate, profiles: [SyncedProfile], request: SigningSyncRequest) -> [String] {
        var warnings: [String] = []
        let renew = request.readOnly ? "run 'slipway signing sync --renew' without --readonly" : "run again with --renew"
        if certificate.expiresWithin(days: request.warningDays, now: request.now) {
            warnings.append("the certificate '\(certificate.commonName ?? "?")' expires on \(DateText.day(certificate.notValidAfter)) "
                + "(within \(request.warningDays) days): \(renew) to replace it")
        }
        for synced in profiles {
            guard let profile = synced.profile, profile.expiresWithin(days: request.warningDays, now: request.now) else { continue }
            warnings.append("the profile '\(profile.name)' (\(synced.bundleID)) expires on \(DateText.day(profile.expirationDate)) "
                + "(within \(request.warningDays) days): \(renew) to replace it")
        }
        return warnings
    }
}
