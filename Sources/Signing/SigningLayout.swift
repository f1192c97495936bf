import Foundation

/// The kinds of certificate match keeps, as the folder names under `certs/` (from match's
/// `Match.cert_type_sym` in fastlane's `match/lib/match/module.rb`).
public enum SigningCertificateKind: String, CaseIterable, Sendable, Codable {
    case development
    /// App Store and ad hoc share one distribution certificate.
    case distribution
    case enterprise
    case developerIDApplication = "developer_id_application"
    case developerIDInstaller = "developer_id_installer"
    case macInstallerDistribution = "mac_installer_distribution"
}

/// The kinds of provisioning profile match keeps, as the folder names under `profiles/`
/// (match's `Match.environments`, and its `profile_type_name` for file names).
public enum SigningProfileKind: String, CaseIterable, Sendable, Codable {
    case appStore = "appstore"
    case adHoc = "adhoc"
    case development
    case enterprise
    case developerID = "developer_id"

    /// The first part of a profile's file name: `AppStore`, `AdHoc`, `Development`,
    /// `InHouse`, `Direct`.
    public var fileNamePrefix: String {
        switch self {
        case .appStore: return "AppStore"
        case .adHoc: return "AdHoc"
        case .development: return "Development"
        case .enterprise: return "InHouse"
        case .developerID: return "Direct"
        }
    }

    /// The certificate kind a profile of this kind is signed with.
    public var certificateKind: SigningCertificateKind {
        switch self {
        case .appStore, .adHoc: return .distribution
        case .development: return .development
        case .enterprise: return .enterprise
        case .developerID: return .developerIDApplication
        }
    }
}

/// One file of the layout, recognised from its path.
public enum SigningLayoutEntry: Sendable, Hashable {
    /// `certs/<kind>/<id>.cer`: a certificate; `id` is Apple's certificate id.
    case certificate(kind: SigningCertificateKind, id: String)
    /// `certs/<kind>/<id>.p12`: the certificate's private key (and certificate) as PKCS#12.
    case privateKey(kind: SigningCertificateKind, id: String)
    /// `profiles/<kind>/<Prefix>_<bundle id>[_<platform>].mobileprovision`.
    case profile(kind: SigningProfileKind, bundleID: String, platform: String?)
}

/// match's storage layout (fastlane `match/lib/match/runner.rb`, `generator.rb`), which Slipway
/// uses for its own storages too, so that a team can move either way.
public enum SigningLayout {
    /// match's marker file at a storage's root, holding the fastlane version that wrote it.
    public static let matchMarker = "match_version.txt"
    /// Slipway's unencrypted manifest at a storage's root.
    public static let manifest = "slipway-signing.json"
    /// Files at the root that are not encrypted content.
    public static let plainFiles: Set<String> = [matchMarker, manifest, "README.md"]

    /// `certs/<kind>/<id>.cer`.
    public static func certificatePath(kind: SigningCertificateKind, id: String) -> String {
        "certs/\(kind.rawValue)/\(id).cer"
    }

    /// `certs/<kind>/<id>.p12`.
    public static func privateKeyPath(kind: SigningCertificateKind, id: String) -> String {
        "certs/\(kind.rawValue)/\(id).p12"
    }

    /// `profiles/<kind>/<Prefix>_<bundle id>.mobileprovision`; match appends `_<platform>` for
    /// platforms other than iOS (`macos`, `tvos`, `catalyst`).
    public static func profilePath(kind: SigningProfileKind, bundleID: String, platform: String? = nil) -> String {
        var name = kind.fileNamePrefix + "_" + bundleID
        if let platform, platform != "ios" { name += "_" + platform }
        return "profiles/\(kind.rawValue)/\(name).mobileprovision"
    }

    /// What `path` holds, or nil when it is not part of the layout.
    public static func entry(for path: String) -> SigningLayoutEntry? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { return nil }
        let file = parts[2]
        if parts[0] == "certs", let kind = SigningCertificateKind(rawValue: parts[1]) {
            if file.hasSuffix(".cer"), file.count > 4 { return .certificate(kind: kind, id: String(file.dropLast(4))) }
            if file.hasSuffix(".p12"), file.count > 4 { return .privateKey(kind: kind, id: String(file.dropLast(4))) }
            return nil
        }
        guard parts[0] == "profiles", let kind = SigningProfileKind(rawValue: parts[1]),
              file.hasSuffix(".mobileprovision"), file.hasPrefix(kind.fileNamePrefix + "_")
        else { return nil }
        let stem = String(file.dropFirst(kind.fileNamePrefix.count + 1).dropLast(".mobileprovision".count))
        guard !stem.isEmpty else { return nil }
        for platform in ["macos", "tvos", "catalyst"] where stem.hasSuffix("_" + platform) {
            return .profile(kind: kind, bundleID: String(stem.dropLast(platform.count + 1)), platform: platform)
        }
        return .profile(kind: kind, bundleID: stem, platform: nil)
    }

    /// Checks that `path` is relative, non-empty and stays inside the storage.
    /// - Throws: `SigningStorageError.invalidPath`.
    public static func validate(path: String) throws {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == ".." || $0 == "." }),
              !path.contains("\\"), !path.contains("\0")
        else { throw SigningStorageError.invalidPath(path: path) }
    }
}
