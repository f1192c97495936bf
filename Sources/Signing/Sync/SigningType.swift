import Foundation

/// What a signing sync is for, as `--type` names it (fastlane match's `type`).
public enum SigningType: String, CaseIterable, Sendable, Codable {
    case development
    case appStore = "app-store"
    case adHoc = "ad-hoc"
    case enterprise
    case developerID = "developer-id"

    /// The storage folder of its profiles.
    public var profileKind: SigningProfileKind {
        switch self {
        case .development: return .development
        case .appStore: return .appStore
        case .adHoc: return .adHoc
        case .enterprise: return .enterprise
        case .developerID: return .developerID
        }
    }

    /// The storage folder of its certificates.
    public var certificateKind: SigningCertificateKind { profileKind.certificateKind }

    /// Whether its profiles list devices (development and ad hoc).
    public var needsDevices: Bool { self == .development || self == .adHoc }

    /// The platforms a profile of this type exists for on App Store Connect.
    public var platforms: [SigningPlatform] {
        switch self {
        case .development, .appStore: return SigningPlatform.allCases
        case .adHoc, .enterprise: return [.ios, .tvos]
        case .developerID: return [.macos, .catalyst]
        }
    }
}

/// The platform a profile is for (match's `platform`); iOS unless told.
public enum SigningPlatform: String, CaseIterable, Sendable, Codable {
    case ios, macos, tvos, catalyst

    /// The suffix of match's profile file names (none for iOS).
    public var fileSuffix: String? { self == .ios ? nil : rawValue }

    /// App Store Connect's platform of bundle ids and devices for it.
    public var appleBundlePlatform: String { self == .macos ? "MAC_OS" : "IOS" }

    /// App Store Connect's platform of the devices a development or ad hoc profile lists.
    public var appleDevicePlatform: String { self == .macos || self == .catalyst ? "MAC_OS" : "IOS" }
}

/// App Store Connect's names for certificate and profile types (`CertificateType` and
/// `ProfileType` in the API's reference: https://developer.apple.com/documentation/appstoreconnectapi/certificatetype
/// and https://developer.apple.com/documentation/appstoreconnectapi/profile/attributes-data.dictionary).
public enum AppleSigningTypes {
    /// The certificate types whose certificates can sign profiles of `type` on `platform`, the
    /// one created first: Apple's current universal types (Apple Development / Apple
    /// Distribution), then the older per-platform ones, which still work until they expire.
    public static func certificateTypes(_ type: SigningType, platform: SigningPlatform) -> [String] {
        let mac = platform == .macos || platform == .catalyst
        switch type {
        case .development: return mac ? ["DEVELOPMENT", "MAC_APP_DEVELOPMENT"] : ["DEVELOPMENT", "IOS_DEVELOPMENT"]
        case .appStore, .adHoc: return mac ? ["DISTRIBUTION", "MAC_APP_DISTRIBUTION"] : ["DISTRIBUTION", "IOS_DISTRIBUTION"]
        case .enterprise: return ["DISTRIBUTION", "IOS_DISTRIBUTION"]
        case .developerID: return ["DEVELOPER_ID_APPLICATION", "DEVELOPER_ID_APPLICATION_G2"]
        }
    }

    /// The profile type for `type` on `platform`, or nil when Apple has none (an in-house macOS
    /// profile, a Developer ID iOS profile).
    public static func profileType(_ type: SigningType, platform: SigningPlatform) -> String? {
        guard type.platforms.contains(platform) else { return nil }
        let prefix: String
        switch platform {
        case .ios: prefix = "IOS_APP_"
        case .tvos: prefix = "TVOS_APP_"
        case .macos: prefix = "MAC_APP_"
        case .catalyst: prefix = "MAC_CATALYST_APP_"
        }
        switch type {
        case .development: return prefix + "DEVELOPMENT"
        case .appStore: return prefix + "STORE"
        case .adHoc: return prefix + "ADHOC"
        case .enterprise: return prefix + "INHOUSE"
        case .developerID: return prefix + "DIRECT"
        }
    }
}
