import Basics
import Foundation

/// A file of the metadata folder that Slipway does not send, and why.
public struct ListingUnsentFile: Sendable, Hashable, CustomStringConvertible {
    /// The path relative to the metadata folder (a folder ends in `/`).
    public var path: String
    /// Why it is not sent.
    public var reason: String

    public var description: String { "not sent: \(path) (\(reason))" }
}

/// deliver's metadata folder (`fastlane/metadata`): one folder per App Store locale holding
/// `name.txt`, `subtitle.txt`, `privacy_url.txt`, `description.txt`, `keywords.txt`,
/// `promotional_text.txt`, `release_notes.txt`, `support_url.txt` and `marketing_url.txt`; a
/// `default/` folder whose files stand in for a locale that lacks them (as deliver does); and
/// `copyright.txt` at the top (the version's copyright).
///
/// What a file means: its text with every trailing line break (`\n` or `\r\n`) removed; nothing
/// else is changed (leading spaces and inner line breaks are kept). An empty file and a missing
/// one both mean "no text". What pull writes: the text followed by one `\n` (an empty text as a
/// lone `\n`), so pull → push → pull gives the same bytes, and a file whose meaning already
/// matches is not rewritten (whatever its line endings). Files are written atomically and none
/// is ever deleted. Every other file is reported as not sent, with the reason.
public struct ListingFolder: Sendable {
    /// The folder whose files fill in for every locale.
    public static let defaultFolder = "default"
    /// The non-localized file Slipway sends: the version's copyright.
    public static let copyrightFile = "copyright.txt"

    /// What a metadata folder holds.
    public struct Contents: Sendable, Hashable {
        /// locale → field → text, as the locale folders give them (without `default/`).
        public var locales: [String: [ListingField: String]] = [:]
        /// `default/`'s texts.
        public var defaults: [ListingField: String] = [:]
        /// `copyright.txt`'s text, nil when there is no such file.
        public var copyright: String?
        /// Files not sent, sorted by path.
        public var unsent: [ListingUnsentFile] = []

        /// The texts of `locale`: its own files, else `default/`'s.
        public func effective(_ locale: String) -> [ListingField: String] {
            defaults.merging(locales[locale] ?? [:]) { _, own in own }
        }
    }

    /// The folder's path.
    public let path: String
    let fileSystem: any FileSystem

    /// The metadata folder at `path`.
    public init(path: String, fileSystem: any FileSystem) {
        self.path = path
        self.fileSystem = fileSystem
    }

    /// The meaning of a file's text: every trailing line break removed.
    public static func meaning(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last == "\n" || last == "\r\n" || last == "\r" { text = text.dropLast() }
        return String(text)
    }

    /// What pull writes for `text`: its meaning and one `\n`.
    public static func fileText(_ text: String) -> String { meaning(text) + "\n" }

    /// Reads the folder; with `only`, locale folders outside it are not read.
    /// - Throws: `AppStoreListingError.folderMissing`, `.unknownLocaleFolder` (with the nearest
    ///   codes); `FileSystemError` for a file that cannot be read or is not UTF-8.
    public func read(only: Set<String>? = nil) throws -> Contents {
        guard fileSystem.isDirectory(path) else { throw AppStoreListingError.folderMissing(path) }
        var contents = Contents()
        for (name, kind) in try fileSystem.kinds(ofDirectory: path).sorted(by: { $0.name < $1.name }) {
            let full = path + "/" + name
            if kind == .directory {
                if name == Self.defaultFolder {
                    contents.defaults = try readTexts(name, into: &contents.unsent)
                } else if let reason = Self.topFolderReasons[name] {
                    contents.unsent += try unsentTree(name, reason: reason)
                } else if AppStoreLocales.isAccepted(name) {
                    if let only, !only.contains(name) { continue }
                    contents.locales[name] = try readTexts(name, into: &contents.unsent)
                } else {
                    throw AppStoreListingError.unknownLocaleFolder(path: full, suggestions: AppStoreLocales.suggestions(for: name))
                }
            } else if name == Self.copyrightFile {
                contents.copyright = Self.meaning(try readText(full, kind: kind))
            } else {
                contents.unsent.append(ListingUnsentFile(path: name, reason: Self.reason(topFile: name)))
            }
        }
        contents.unsent.sort { $0.path < $1.path }
        return contents
    }

    /// Writes `texts` (every field of every locale given, but the app info's of the locales in
    /// `texts.withoutAppInfo`, and the copyright when not nil) where
    /// the folder's meaning differs; returns the paths written (in a dry run: that would be),
    /// relative to the folder.
    /// - Throws: `AppStoreListingError.unknownLocale` for a locale that is not an App Store
    ///   locale (it would name a folder: nothing is written), `FileSystemError`.
    public func write(_ texts: ListingTexts, over current: Contents, dryRun: Bool = false) throws -> [String] {
        for locale in texts.locales.keys.sorted() where !AppStoreLocales.isAccepted(locale) {
            throw AppStoreListingError.unknownLocale(locale, suggestions: AppStoreLocales.suggestions(for: locale))
        }
        var written: [String] = []
        if !dryRun, !fileSystem.isDirectory(path) { try fileSystem.createDirectory(path) }
        // Never through a link: a committed `en-US -> /home/me/.ssh` must not receive files.
        for locale in texts.locales.keys {
            let folder = path + "/" + locale
            try refuseLink(folder)
            for field in ListingField.allCases { try refuseLink(folder + "/" + field.fileName) }
        }
        if texts.copyright != nil { try refuseLink(path + "/" + Self.copyrightFile) }
        for locale in texts.locales.keys.sorted() {
            let have = current.effective(locale)
            let folder = path + "/" + locale
            for field in ListingField.allCases where !(field.resource == .appInfo && texts.withoutAppInfo.contains(locale)) {
                let wanted = Self.meaning(texts.text(field, locale))
                let file = folder + "/" + field.fileName
                if let existing = have[field], existing == wanted { continue }
                written.append(locale + "/" + field.fileName)
                if dryRun { continue }
                if !fileSystem.isDirectory(folder) { try fileSystem.createDirectory(folder) }
                try fileSystem.writeAtomically(Self.fileText(wanted), to: file)
            }
        }
        if let copyright = texts.copyright.map(Self.meaning), copyright != current.copyright {
            written.append(Self.copyrightFile)
            if !dryRun { try fileSystem.writeAtomically(Self.fileText(copyright), to: path + "/" + Self.copyrightFile) }
        }
        return written
    }

    /// The largest file read as a text (64 KiB): Apple's longest text is 4,000 characters.
    public static let maximumFileBytes: Int64 = 64 << 10

    /// A text file's content: a regular file (never through a symbolic link) of at most
    /// `maximumFileBytes`.
    private func readText(_ file: String, kind: FileKind?) throws -> String {
        switch kind {
        case .file?: break
        case .symbolicLink?:
            throw AppStoreListingError.unsafeFile(path: file, problem: "is a symbolic link, which Slipway does not follow in the metadata folder")
        default: throw AppStoreListingError.unsafeFile(path: file, problem: "is not a regular file")
        }
        if let size = fileSystem.status(of: file)?.details?.size, size > Self.maximumFileBytes {
            throw AppStoreListingError.unsafeFile(path: file, problem: "is \(size) bytes, more than the \(Self.maximumFileBytes) Slipway reads for one text")
        }
        // Capped while reading too: a file that grew after the size check is never read whole.
        do {
            return try fileSystem.readText(file, as: FileBudget("listing text", limit: Int(Self.maximumFileBytes)))
        } catch ProjectFileError.tooLarge {
            throw AppStoreListingError.unsafeFile(path: file, problem: "is more than the \(Self.maximumFileBytes) bytes Slipway reads for one text")
        }
    }

    private func refuseLink(_ path: String) throws {
        if fileSystem.kind(of: path) == .symbolicLink {
            throw AppStoreListingError.unsafeFile(path: path, problem: "is a symbolic link, which pull does not write through")
        }
    }

    private func readTexts(_ folder: String, into unsent: inout [ListingUnsentFile]) throws -> [ListingField: String] {
        var texts: [ListingField: String] = [:]
        for (name, kind) in try fileSystem.kinds(ofDirectory: path + "/" + folder) {
            let relative = folder + "/" + name
            if kind == .directory {
                unsent += try unsentTree(relative, reason: "a folder inside a locale folder is not part of deliver's layout")
            } else if let field = ListingField(fileName: name) {
                texts[field] = Self.meaning(try readText(path + "/" + relative, kind: kind))
            } else {
                unsent.append(ListingUnsentFile(path: relative, reason: Self.reason(localeFile: name)))
            }
        }
        return texts
    }

    private func unsentTree(_ relative: String, reason: String) throws -> [ListingUnsentFile] {
        var found: [ListingUnsentFile] = []
        for (name, kind) in try fileSystem.kinds(ofDirectory: path + "/" + relative) {
            if kind == .directory { found += try unsentTree(relative + "/" + name, reason: reason) } else {
                found.append(ListingUnsentFile(path: relative + "/" + name, reason: reason))
            }
        }
        return found.isEmpty ? [ListingUnsentFile(path: relative + "/", reason: reason)] : found
    }

    static let topFolderReasons = [
        "review_information": "App Review contact and notes; Slipway does not send them yet: enter them in App Store Connect",
        "trade_representative_contact_information": "the Korean trade representative contact; Slipway does not send it yet",
    ]

    static func reason(topFile name: String) -> String {
        if name.hasPrefix(".") { return "a hidden file, not listing text" }
        if name.hasSuffix("category.txt") {
            return "app categories are the app info's relationships; Slipway does not send them yet: set them in App Store Connect"
        }
        if name.hasPrefix("app_icon.") || name.hasPrefix("watch_icon.") {
            return "App Store Connect's API has no call for the App Store icon: it comes from the build's asset catalog"
        }
        if name == "app_rating_config.json" || name == "age_rating.json" { return "the age rating; Slipway does not send it yet" }
        return "not a file of deliver's metadata layout"
    }

    static func reason(localeFile name: String) -> String {
        if name.hasPrefix(".") { return "a hidden file, not listing text" }
        switch name {
        case "apple_tv_privacy_policy.txt": return "the tvOS privacy policy text (privacyPolicyText); Slipway does not send it yet"
        case "privacy_choices_url.txt": return "the privacy choices URL; Slipway does not send it yet"
        default: return "not a file of deliver's metadata layout"
        }
    }
}
