import AppleAPI
import Basics
import Foundation

/// One writable `signing sync`: asks Apple, creates what is missing, stores it, and saves.
struct SigningSyncRun {
    let sync: SigningSync
    let portal: any SigningPortal
    let request: SigningSyncRequest
    let profileType: String
    private(set) var actions: [String] = []
    private(set) var warnings: [String] = []
    private var createdCertificateIDs: [String] = []
    private var createdProfileIDs: [String] = []
    private var wroteStorage = false

    init(sync: SigningSync, portal: any SigningPortal, request: SigningSyncRequest, profileType: String) {
        self.sync = sync
        self.portal = portal
        self.request = request
        self.profileType = profileType
    }

    private var storage: EncryptedSigningStorage { sync.storage }
    private var would: String { request.dryRun ? "would " : "" }

    mutating func perform(files: [String]) async throws -> SigningSyncResult {
        // Bundle ids and devices first: a bad one stops the run before anything is created.
        let bundles = try await bundleResources()
        let devices = request.type.needsDevices ? try await enabledDevices() : []
        let (certificateID, identity) = try await certificate(files: files)
        let appleProfiles = try await portal.profiles(type: profileType, name: nil)
        var profiles: [SyncedProfile] = []
        for bundleID in request.bundleIDs {
            profiles.append(try await profile(bundleID, bundleResourceID: bundles[bundleID] ?? "", certificateID: certificateID,
                                              identity: identity, devices: devices, appleProfiles: appleProfiles, files: files))
        }
        if wroteStorage {
            try await save()
        }
        let expiring = identity.map { SigningSync.expiryWarnings($0.certificate, profiles: profiles, request: request) } ?? []
        return SigningSyncResult(certificateID: certificateID, identity: identity, profiles: profiles, actions: actions,
                                 warnings: warnings + expiring)
    }

    // MARK: certificate

    private mutating func certificate(files: [String]) async throws -> (String, SigningIdentity?) {
        let kind = request.type.certificateKind
        let types = AppleSigningTypes.certificateTypes(request.type, platform: request.platform)
        let stored = try await storage.storedCertificates(kind: kind, files: files)
        let onApple = Set(try await portal.certificates(types: types).map(\.id))
        for missing in stored where !onApple.contains(missing.id) {
            warnings.append("'\(storage.fileName(missing.certificatePath))' is not on App Store Connect (revoked, or another team's): "
                + "it is not used; 'slipway signing nuke' clears such files")
        }
        let valid = stored.filter {
            onApple.contains($0.id) && $0.certificate.notValidAfter > request.now
                && !(request.renew && $0.certificate.expiresWithin(days: request.warningDays, now: request.now))
        }
        let newest = { (a: StoredCertificate, b: StoredCertificate) in a.certificate.notValidAfter < b.certificate.notValidAfter }
        if let chosen = valid.filter(\.hasKey).max(by: newest) {
            sync.log("certificate \(chosen.id) (\(chosen.certificate.commonName ?? "?")) from the storage, valid on App Store Connect")
            return (chosen.id, try await storage.identity(of: chosen, passphrase: sync.passphrase))
        }
        if let keyless = valid.max(by: newest) {
            throw SigningSyncError.keyMissing(file: storage.fileName(keyless.certificatePath))
        }
        guard !request.dryRun else {
            actions.append("would create a \(types[0]) certificate on App Store Connect and store it")
            return ("", nil)
        }
        return try await createCertificate(type: types[0], kind: kind)
    }

    private mutating func createCertificate(type: String, kind: SigningCertificateKind) async throws -> (String, SigningIdentity?) {
        sync.log("creating a \(type) certificate on App Store Connect")
        let key = try await BlockingWork.run(name: "slipway-signing-keygen") { try SigningPrivateKey.generate() }
        let request = try SigningRequest(commonName: "Slipway signing key", emailAddress: nil, countryCode: nil, key: key)
        let created = try await portal.createCertificate(type: type, csrPEM: request.pem)
        createdCertificateIDs.append(created.id)
        let certificate = try SigningCertificate(bytes: created.content, file: "the certificate \(created.id) from App Store Connect")
        let identity = try SigningIdentity(certificate: certificate, key: key)
        try await storage.write(identity: identity, id: created.id, kind: kind, passphrase: sync.passphrase)
        wroteStorage = true
        actions.append("created the certificate \(created.id) (\(certificate.commonName ?? created.name)) on App Store Connect")
        actions.append("stored \(SigningLayout.certificatePath(kind: kind, id: created.id)) and its .p12")
        return (created.id, identity)
    }

    // MARK: bundle ids and devices

    private mutating func bundleResources() async throws -> [String: String] {
        var resources: [String: String] = [:]
        for bundleID in request.bundleIDs {
            if let found = try await portal.bundleIDs(identifier: bundleID).first {
                resources[bundleID] = found.id
                continue
            }
            guard request.register else {
                throw SigningSyncError.bundleIDNotRegistered(bundleID: bundleID, platform: request.platform.appleBundlePlatform)
            }
            actions.append("\(would)register the bundle id \(bundleID) on App Store Connect")
            if !request.dryRun {
                let name = "Slipway " + String(bundleID.map { $0.isLetter || $0.isNumber ? $0 : " " })
                resources[bundleID] = try await portal.registerBundleID(identifier: bundleID, name: name,
                                                                        platform: request.platform.appleBundlePlatform).id
            }
        }
        return resources
    }

    private func enabledDevices() async throws -> [AppStoreConnectDevice] {
        let platform = request.platform.appleDevicePlatform
        let devices = try await portal.devices(platform: platform, enabledOnly: true).filter { device in
            switch request.platform {
            case .tvos: return device.deviceClass == "APPLE_TV"
            case .ios: return device.deviceClass != "APPLE_TV"
            case .macos, .catalyst: return true
            }
        }
        guard !devices.isEmpty else { throw SigningSyncError.noDevices(platform: platform) }
        return devices
    }

    // MARK: profiles

    /// The name of the profile Slipway makes (match's naming in a match storage, so match finds it too).
    private func profileName(_ bundleID: String) -> String {
        let owner = storage.format == .match ? "match" : "Slipway"
        let suffix = request.platform.fileSuffix.map { " " + $0 } ?? ""
        return "\(owner) \(request.type.profileKind.fileNamePrefix) \(bundleID)\(suffix)"
    }

    private mutating func profile(
        _ bundleID: String, bundleResourceID: String, certificateID: String, identity: SigningIdentity?,
        devices: [AppStoreConnectDevice], appleProfiles: [AppStoreConnectProfile], files: [String]
    ) async throws -> SyncedProfile {
        let path = SigningLayout.profilePath(kind: request.type.profileKind, bundleID: bundleID, platform: request.platform.fileSuffix)
        let stored = files.contains(path)
            ? try ProvisioningProfile(bytes: try await storage.read(path), file: storage.fileName(path)) : nil
        let reason = problem(stored, bundleID: bundleID, identity: identity, devices: devices, appleProfiles: appleProfiles)
        guard let reason else {
            sync.log("profile '\(stored?.name ?? "")' for \(bundleID) from the storage, valid")
            return SyncedProfile(bundleID: bundleID, path: path, profile: stored)
        }
        let name = profileName(bundleID)
        sync.log("\(would)make the profile '\(name)': \(reason)")
        let stale = appleProfiles.filter { $0.name == name || (stored != nil && $0.uuid == stored?.uuid) }
        guard !request.dryRun else {
            actions += stale.map { "would delete the profile '\($0.name)' (\($0.uuid)) on App Store Connect" }
            actions.append("would create the profile '\(name)' for \(bundleID) (\(reason)) and store \(path)")
            return SyncedProfile(bundleID: bundleID, path: path, profile: nil)
        }
        for old in stale {
            try await portal.deleteProfile(id: old.id)
            actions.append("deleted the profile '\(old.name)' (\(old.uuid)) on App Store Connect")
        }
        let created = try await portal.createProfile(name: name, type: profileType, bundleIDResourceID: bundleResourceID,
                                                     certificateIDs: [certificateID], deviceIDs: devices.map(\.id))
        createdProfileIDs.append(created.id)
        let profile = try ProvisioningProfile(bytes: created.content, file: "the profile '\(name)' from App Store Connect")
        try await storage.write(path, created.content)
        wroteStorage = true
        actions.append("created the profile '\(name)' (\(profile.uuid)) on App Store Connect and stored \(path)")
        return SyncedProfile(bundleID: bundleID, path: path, profile: profile)
    }

    /// Why the stored profile must be replaced, or nil when it is good.
    private func problem(_ stored: ProvisioningProfile?, bundleID: String, identity: SigningIdentity?,
                         devices: [AppStoreConnectDevice], appleProfiles: [AppStoreConnectProfile]) -> String? {
        guard let stored else { return "the storage has none" }
        guard let identity else { return "the certificate is new" }
        if let problem = SigningSync.problem(of: stored, bundleID: bundleID, certificate: identity.certificate, request: request) {
            return problem
        }
        if request.renew, stored.expiresWithin(days: request.warningDays, now: request.now) {
            return "it expires on \(DateText.day(stored.expirationDate)) and --renew was given"
        }
        guard let onApple = appleProfiles.first(where: { $0.uuid.caseInsensitiveCompare(stored.uuid) == .orderedSame }) else {
            return "App Store Connect no longer has it"
        }
        if onApple.profileState != "ACTIVE" {
            return "App Store Connect marks it \(onApple.profileState)"
        }
        let listed = Set(stored.deviceUDIDs.map { $0.lowercased() })
        let missing = devices.filter { !listed.contains($0.udid.lowercased()) }
        if !missing.isEmpty {
            return "it lacks \(missing.count) enabled device(s) (\(missing.map(\.name).joined(separator: ", ")))"
        }
        return nil
    }

    // MARK: saving

    /// Saves the storage; when that fails, revokes the certificate and deletes the profiles this
    /// run made on Apple's side (so a lost race does not use up the team's certificate limit).
    private mutating func save() async throws {
        do {
            try await storage.save(message: "Slipway signing sync (\(request.type.rawValue)): " + actions.joined(separator: "; "))
        } catch {
            var undone: [String] = []
            for id in createdProfileIDs where (try? await portal.deleteProfile(id: id)) != nil { undone.append("profile \(id)") }
            for id in createdCertificateIDs where (try? await portal.revokeCertificate(id: id)) != nil { undone.append("certificate \(id)") }
            let note = undone.isEmpty ? "" : "What this run created on App Store Connect was removed again (\(undone.joined(separator: ", "))), "
                + "so the team's certificate limit is not used up. "
            throw SigningSyncError.saveFailed(detail: errorText(error), undone: note)
        }
    }
}
