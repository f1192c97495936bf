import Foundation

/// Apple's limits on listing texts, checked before anything is sent (see `ListingField` for the
/// limits and their sources). Every violation is gathered, so one run shows them all.
public enum ListingLimits {
    /// The violations of `contents` (for `locales`, or every locale folder): each text over its
    /// limit, each name shorter than 2 characters (an empty name.txt included), each URL that is not an absolute http(s) URL,
    /// naming the file that gave the text (the locale's own, else `default/`'s).
    public static func violations(in contents: ListingFolder.Contents, locales: [String]) -> [ListingViolation] {
        var found: [ListingViolation] = []
        var checkedDefaults = Set<ListingField>()
        for locale in locales.sorted() {
            for (field, text) in contents.effective(locale).sorted(by: { $0.key < $1.key }) {
                let own = contents.locales[locale]?[field] != nil
                if !own {
                    guard !checkedDefaults.contains(field) else { continue }
                    checkedDefaults.insert(field)
                }
                let file = (own ? locale : ListingFolder.defaultFolder) + "/" + field.fileName
                if let problem = problem(field, text) { found.append(ListingViolation(file: file, problem: problem)) }
            }
        }
        return found
    }

    /// What is wrong with `text` as `field`, or nil.
    public static func problem(_ field: ListingField, _ text: String) -> String? {
        // An empty name.txt would clear the name, which App Store Connect requires.
        if text.isEmpty { return field == .name ? "name is empty; App Store Connect needs a name of 2 to 30 characters (\(field.limitSource))" : nil }
        if let limit = field.characterLimit {
            let count = text.count
            if count > limit {
                return "\(field.label) is \(count) characters; App Store Connect accepts at most \(limit) (\(field.limitSource))"
            }
            if field == .name, count < 2 {
                return "name is \(count) character; App Store Connect needs at least 2 (\(field.limitSource))"
            }
            return nil
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host?.isEmpty == false,
              !text.contains(where: \.isWhitespace) else {
            return "\(field.label) '\(text)' is not an http:// or https:// URL; App Store Connect accepts only those"
        }
        return nil
    }
}
