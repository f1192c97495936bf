import Foundation

/// One localized text of an App Store listing: the file deliver keeps it in
/// (`fastlane/metadata/<locale>/<file>`), the App Store Connect resource and attribute that
/// holds it, and Apple's limit.
///
/// Limits, as App Store Connect Help states them:
/// - "App information" (https://developer.apple.com/help/app-store-connect/reference/app-information):
///   name "must be at least 2 characters and no more than 30 characters"; subtitle "can't be
///   longer than 30 characters"; the privacy policy URL.
/// - "Platform version information"
///   (https://developer.apple.com/help/app-store-connect/reference/platform-version-information):
///   promotional text "can't be longer than 170 characters"; description "limited to 4000
///   characters"; keywords "up to 100 bytes" (but App Store Connect counts characters: Home
///   Assistant's live Russian keywords are 95 characters and 167 bytes, so Slipway checks 100
///   characters, as App Store Connect's own form does); What's New 4000 characters; support and
///   marketing URLs.
/// Characters are counted as Swift counts them (grapheme clusters).
public enum ListingField: String, Sendable, CaseIterable, Comparable {
    case name, subtitle, privacyURL = "privacy_url"
    case description, keywords, promotionalText = "promotional_text", releaseNotes = "release_notes"
    case supportURL = "support_url", marketingURL = "marketing_url"

    /// Which resource holds the text.
    public enum Resource: Sendable {
        /// `appInfoLocalizations` (the app's info, shared by its versions).
        case appInfo
        /// `appStoreVersionLocalizations` (one version of one platform).
        case version
    }

    /// The file name in a locale folder, e.g. `name.txt`.
    public var fileName: String { rawValue + ".txt" }

    /// The resource that holds it.
    public var resource: Resource {
        switch self {
        case .name, .subtitle, .privacyURL: return .appInfo
        default: return .version
        }
    }

    /// The API attribute, e.g. `privacyPolicyUrl`.
    public var attribute: String {
        switch self {
        case .name: return "name"
        case .subtitle: return "subtitle"
        case .privacyURL: return "privacyPolicyUrl"
        case .description: return "description"
        case .keywords: return "keywords"
        case .promotionalText: return "promotionalText"
        case .releaseNotes: return "whatsNew"
        case .supportURL: return "supportUrl"
        case .marketingURL: return "marketingUrl"
        }
    }

    /// The name App Store Connect shows, e.g. "What's New".
    public var label: String {
        switch self {
        case .name: return "name"
        case .subtitle: return "subtitle"
        case .privacyURL: return "privacy policy URL"
        case .description: return "description"
        case .keywords: return "keywords"
        case .promotionalText: return "promotional text"
        case .releaseNotes: return "What's New"
        case .supportURL: return "support URL"
        case .marketingURL: return "marketing URL"
        }
    }

    /// The most characters Apple accepts, or nil for URLs.
    public var characterLimit: Int? {
        switch self {
        case .name, .subtitle: return 30
        case .keywords: return 100
        case .promotionalText: return 170
        case .description, .releaseNotes: return 4000
        case .privacyURL, .supportURL, .marketingURL: return nil
        }
    }

    /// True for the fields that must be http(s) URLs.
    public var isURL: Bool { characterLimit == nil }

    /// Apple's page that states the limit.
    public var limitSource: String {
        resource == .appInfo ? "App Store Connect Help, App information" : "App Store Connect Help, Platform version information"
    }

    /// The fields of `resource`.
    public static func fields(of resource: Resource) -> [ListingField] { allCases.filter { $0.resource == resource } }

    /// The field stored in `fileName`, if any.
    public init?(fileName: String) {
        guard fileName.hasSuffix(".txt") else { return nil }
        self.init(rawValue: String(fileName.dropLast(4)))
    }

    public static func < (lhs: ListingField, rhs: ListingField) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// The texts of an App Store listing: per locale and field, and the version's copyright.
/// An empty text and a missing one mean the same: nothing there.
public struct ListingTexts: Sendable, Hashable {
    /// locale → field → text.
    public var locales: [String: [ListingField: String]]
    /// The version's copyright (`copyright.txt`), nil when not given.
    public var copyright: String?
    /// Locales whose app info texts (name, subtitle, privacy URL) are not written: App Store
    /// Connect's app info has no localization for them.
    public var withoutAppInfo: Set<String> = []

    /// Texts.
    public init(locales: [String: [ListingField: String]] = [:], copyright: String? = nil) {
        self.locales = locales
        self.copyright = copyright
    }

    /// The text of `field` in `locale`, "" when there is none.
    public func text(_ field: ListingField, _ locale: String) -> String { locales[locale]?[field] ?? "" }
}
