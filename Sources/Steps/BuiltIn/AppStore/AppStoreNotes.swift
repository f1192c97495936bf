import AppleAPI
import Basics
import Foundation
import Release

/// Localized texts for testflight.distribute ("What to Test") and appstore.submit ("What's
/// New"): a map of locale → text, or by default the CHANGELOG entry of the version, as plain
/// text (`ChangelogFile.plainEntry`), for each of `locales`.
struct AppStoreNotes {
    /// The map option's name (`what-to-test`, `release-notes`).
    let option: String
    /// The field's name in messages ("What to Test").
    let field: String

    /// The options: the map, `changelog` and `locales`.
    func optionSpecs(summary: String) -> [OptionSpec] {
        [
            .optional(option, .map(.string), summary + " by locale, e.g. {en-US: \"…\", ja: \"…\"}; at most 4,000 characters each."),
            .optional("changelog", .string, "When \(option) is not given: the Keep a Changelog file whose entry for the version is used "
                      + "(CHANGELOG.md by default; skipped when that default file or entry is missing)."),
            .optional("locales", .list(.string), default: .list([.string("en-US")]), "The locales the changelog entry is set for."),
        ]
    }

    /// Checks the locales and literal texts (validation: nothing read, nothing sent).
    /// - Throws: `StepError.invalidOption` naming the option and the locale.
    func validate(_ options: StepOptions) throws {
        for (locale, text) in try options.stringMap(option).sorted(by: { $0.key < $1.key }) {
            try check(locale: locale, option: option)
            if !text.contains("${{") {
                do { try AppStoreTextLimit.check(text, field: field, locale: locale) } catch {
                    throw StepError.invalidOption(name: option, problem: "has \(field) for '\(locale)' of \(text.count) characters; "
                                                  + "App Store Connect accepts at most \(AppStoreTextLimit.characters). Shorten it.")
                }
            }
        }
        for locale in try options.strings("locales") { try check(locale: locale, option: "locales") }
    }

    private func check(locale: String, option: String) throws {
        guard !AppStoreLocales.isAccepted(locale) else { return }
        let suggestions = AppStoreLocales.suggestions(for: locale)
        let hint = suggestions.isEmpty ? "" : suggestions.count == 1 ? " Did you mean '\(suggestions[0])'?"
            : " Did you mean one of " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?"
        throw StepError.invalidOption(name: option, problem: "has the locale '\(locale)', which App Store Connect does not accept "
                                      + "(codes are case-sensitive).\(hint) The accepted codes are listed in docs/appstore.md.")
    }

    /// Where the texts come from, for plans: the map's locales, or the changelog entry.
    func source(_ options: StepOptions) throws -> String {
        let map = try options.stringMap(option)
        if !map.isEmpty { return "given for " + map.keys.sorted().joined(separator: ", ") }
        return "from the \(try options.string("changelog") ?? "CHANGELOG.md") entry of the version for "
            + (try options.strings("locales")).joined(separator: ", ")
    }

    /// The texts: the map, or the changelog entry of `version` for each locale (empty when the
    /// default CHANGELOG.md or the entry is missing, said through `log`).
    /// - Throws: `StepError.failed` when an explicitly given changelog is missing, or the entry
    ///   is over Apple's limit.
    func texts(_ options: StepOptions, version: String?, context: StepContext) throws -> [String: String] {
        let map = try options.stringMap(option)
        if !map.isEmpty { return map }
        let given = try options.string("changelog")
        let path = given ?? "CHANGELOG.md"
        guard let version else {
            context.events.log(.info, "no \(field): no version to look up in \(path)")
            return [:]
        }
        let resolved = context.resolve(path)
        guard context.fileSystem.kind(of: resolved) != nil else {
            if given != nil { throw StepError.failed("the changelog '\(path)' (option 'changelog') does not exist. Give its path, or give \(option).") }
            context.events.log(.info, "no \(field): \(path) does not exist")
            return [:]
        }
        // Plain text: neither field shows Markdown, nor should testers see commit hashes.
        guard let entry = ChangelogFile(text: try context.fileSystem.readText(resolved, as: .changelog), path: path).plainEntry(version: version) else {
            context.events.log(.warning, "no \(field): \(path) has no entry for \(version)")
            return [:]
        }
        guard entry.count <= AppStoreTextLimit.characters else {
            throw StepError.failed("\(field) from \(path) (the entry for \(version)) is \(entry.count) characters; App Store Connect accepts "
                                   + "at most \(AppStoreTextLimit.characters). Shorten the entry, or give \(option).")
        }
        let locales = try options.strings("locales")
        return Dictionary((locales.isEmpty ? ["en-US"] : locales).map { ($0, entry) }, uniquingKeysWith: { first, _ in first })
    }
}
