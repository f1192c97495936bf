import AppleAPI
import Foundation

/// `signing nuke`: revokes a type's certificates and deletes its profiles on App Store Connect,
/// and deletes their files from the storage (fastlane match's `nuke`). By default only what the
/// storage holds is touched on Apple's side; `allOnAccount` takes every certificate and profile of
/// the type on the account, as match does.
public struct SigningNuke: Sendable {
    /// One thing the nuke removes.
    public enum Item: Sendable, Hashable {
        /// A certificate revoked on App Store Connect.
        case revokeCertificate(id: String, name: String)
        /// A profile deleted on App Store Connect.
        case deleteProfile(id: String, name: String, uuid: String)
        /// A file deleted from the storage.
        case deleteFile(path: String)

        /// One line for the plan.
        public var description: String {
            switch self {
            case let .revokeCertificate(id, name): return "revoke the certificate \(id) (\(name)) on App Store Connect"
            case let .deleteProfile(_, name, uuid): return "delete the profile '\(name)' (\(uuid)) on App Store Connect"
            case let .deleteFile(path): return "delete \(path) from the storage"
            }
        }
    }

    let storage: EncryptedSigningStorage
    let portal: any SigningPortal

    /// Creates a nuke over `storage` and Apple.
    public init(storage: EncryptedSigningStorage, portal: any SigningPortal) {
        self.storage = storage
        self.portal = portal
    }

    /// What a nuke of `type` on `platform` removes, in the order it does it.
    /// - Throws: `SigningStorageError`, `AppStoreConnectError`.
    public func plan(type: SigningType, platform: SigningPlatform, allOnAccount: Bool) async throws -> [Item] {
        let kind = type.certificateKind
        let files = try await storage.list()
        let storedCertificates = try await storage.storedCertificates(kind: kind, files: files)
        let profileKinds = Set(SigningType.allCases.filter { $0.certificateKind == kind }.map(\.profileKind))
        let storedProfiles = try await storage.storedProfiles(kind: nil, files: files).filter { stored in
            guard case let .profile(profileKind, _, _)? = SigningLayout.entry(for: stored.path) else { return false }
            return profileKinds.contains(profileKind)
        }
        let storedIDs = Set(storedCertificates.map(\.id)), storedUUIDs = Set(storedProfiles.map { $0.profile.uuid.uppercased() })
        var items: [Item] = []
        let types = AppleSigningTypes.certificateTypes(type, platform: platform)
        for certificate in try await portal.certificates(types: types) where allOnAccount || storedIDs.contains(certificate.id) {
            items.append(.revokeCertificate(id: certificate.id, name: certificate.name))
        }
        let profileTypes = SigningType.allCases.filter { $0.certificateKind == kind }
            .compactMap { AppleSigningTypes.profileType($0, platform: platform) }
        for profileType in profileTypes {
            for profile in try await portal.profiles(type: profileType, name: nil)
            where allOnAccount || storedUUIDs.contains(profile.uuid.uppercased()) {
                items.append(.deleteProfile(id: profile.id, name: profile.name, uuid: profile.uuid))
            }
        }
        for certificate in storedCertificates {
            items.append(.deleteFile(path: certificate.certificatePath))
            if certificate.hasKey { items.append(.deleteFile(path: certificate.keyPath)) }
        }
        items += storedProfiles.map { .deleteFile(path: $0.path) }
        return items
    }

    /// Carries out `items` and saves the storage.
    /// - Throws: `AppStoreConnectError`, `SigningStorageError` (what was done before stays done).
    public func perform(_ items: [Item], type: SigningType, log: @Sendable (String) -> Void) async throws {
        var changedStorage = false
        for item in items {
            switch item {
            case let .revokeCertificate(id, _): try await portal.revokeCertificate(id: id)
            case let .deleteProfile(id, _, _): try await portal.deleteProfile(id: id)
            case let .deleteFile(path):
                try await storage.delete(path)
                changedStorage = true
            }
            log(item.description.prefix(1).uppercased() + item.description.dropFirst() + ": done")
        }
        if changedStorage {
            try await storage.save(message: "Slipway signing nuke (\(type.rawValue)): removed \(items.count) item(s)")
        }
    }
}
