/// The locale codes App Store Connect accepts for localized metadata (TestFlight's "What to
/// Test" in `betaBuildLocalizations`, the App Store's "What's New" in
/// `appStoreVersionLocalizations`). They are case-sensitive.
///
/// Sources (the OpenAPI description types `locale` as a plain string, so the list is Apple's
/// documentation, not the spec):
/// - https://developer.apple.com/documentation/appstoreconnectapi/betabuildlocalization/attributes-data.dictionary
///   (the table of allowed locale values);
/// - https://developer.apple.com/help/app-store-connect/reference/app-store-localizations
///   (the languages the App Store supports; the codes bn, gu, kn, ml, mr, or, pa, sl, ta, te
///   and ur were added there after the table above, and are the same in fastlane's deliver list).
public enum AppStoreLocales {
    /// Every accepted code, sorted as Apple lists them.
    public static let all: [String] = [
        "ar-SA", "bn", "ca", "cs", "da", "de-DE", "el", "en-AU", "en-CA", "en-GB", "en-US", "es-ES", "es-MX", "fi",
        "fr-CA", "fr-FR", "gu", "he", "hi", "hr", "hu", "id", "it", "ja", "kn", "ko", "ml", "mr", "ms", "nl-NL", "no",
        "or", "pa", "pl", "pt-BR", "pt-PT", "ro", "ru", "sk", "sl", "sv", "ta", "te", "th", "tr", "uk", "ur", "vi",
        "zh-Hans", "zh-Hant",
    ]

    private static let accepted = Set(all)

    /// True when App Store Connect accepts `code` exactly.
    public static func isAccepted(_ code: String) -> Bool { accepted.contains(code) }

    /// The accepted codes closest to `code`: the same code spelled with another case or `_`;
    /// else every code of the same language (`en` → `en-AU`, `en-CA`, `en-GB`, `en-US`); else the
    /// nearest by edit distance.
    public static func suggestions(for code: String) -> [String] {
        let normalized = code.replacingOccurrences(of: "_", with: "-").lowercased()
        if let same = all.first(where: { $0.lowercased() == normalized }) { return [same] }
        let language = normalized.split(separator: "-").first.map(String.init) ?? normalized
        let sameLanguage = all.filter { $0.lowercased().split(separator: "-").first.map(String.init) == language }
        if !sameLanguage.isEmpty { return sameLanguage }
        let ranked = all.map { (code: $0, distance: editDistance(normalized, $0.lowercased())) }
        guard let best = ranked.map(\.distance).min() else { return [] }
        return ranked.filter { $0.distance == best }.map(\.code)
    }

    /// Throws unless App Store Connect accepts `code`.
    /// - Throws: `AppStoreDistributionError.unknownLocale` with the suggestions.
    public static func check(_ code: String) throws {
        guard !isAccepted(code) else { return }
        throw AppStoreDistributionError.unknownLocale(code, suggestions: suggestions(for: code))
    }

    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs), b = Array(rhs)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// Apple's length limit for "What to Test" and "What's New": 4,000 characters.
///
/// Apple states the limit in characters, not bytes
/// (https://developer.apple.com/help/app-store-connect/reference/testflight-information and
/// https://developer.apple.com/help/app-store-connect/reference/platform-version-information),
/// so 4,000 accented or CJK characters (more than 4,000 bytes of UTF-8) are accepted. Characters
/// are counted as Swift counts them (grapheme clusters).
public enum AppStoreTextLimit {
    /// 4,000 characters.
    public static let characters = 4000

    /// Throws when `text` is longer than the limit.
    /// - Throws: `AppStoreDistributionError.textTooLong` naming the field and locale.
    public static func check(_ text: String, field: String, locale: String) throws {
        let count = text.count
        guard count <= characters else {
            throw AppStoreDistributionError.textTooLong(field: field, locale: locale, characters: count, limit: characters)
        }
    }
}
