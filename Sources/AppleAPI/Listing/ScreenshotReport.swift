import Basics
import Foundation

/// How `ScreenshotSync.push` behaves.
public struct ScreenshotPushOptions: Sendable {
    /// Delete screenshots App Store Connect has and the folder does not (the CLI's
    /// `--remove-screenshots`); without it they are kept and reported.
    public var removeMissing: Bool
    /// Work out and report the plan; send nothing (reads only).
    public var dryRun: Bool
    /// Told one line per action ("uploading en-US APP_IPHONE_67 1.png").
    public var progress: (@Sendable (String) -> Void)?
    /// Polls of a committed screenshot before it counts as stuck.
    public var processingPolls: Int
    /// The wait between polls (through the client's retry policy's `sleep`).
    public var pollInterval: Duration
    /// Only these locales' sets are compared and changed (the CLI's `--locales`); nil: every
    /// locale folder. The others are still read and checked.
    public var locales: Set<String>?

    /// Keeps missing screenshots, sends, waits up to 60 polls 5 s apart.
    public init(removeMissing: Bool = false, dryRun: Bool = false, progress: (@Sendable (String) -> Void)? = nil,
                processingPolls: Int = 60, pollInterval: Duration = .seconds(5), locales: Set<String>? = nil) {
        self.locales = locales
        self.removeMissing = removeMissing
        self.dryRun = dryRun
        self.progress = progress
        self.processingPolls = processingPolls
        self.pollInterval = pollInterval
    }
}

/// What a push or pull did (or, for a dry run, would do), per locale and display type.
public struct ScreenshotReport: Sendable, Equatable {
    /// One locale and display type.
    public struct Entry: Sendable, Equatable, Codable {
        /// The App Store locale ("en-US").
        public var locale: String
        /// Apple's `ScreenshotDisplayType` ("APP_IPHONE_67").
        public var displayType: String
        /// Files sent (push) or written (pull).
        public var uploaded: [String] = []
        /// Files already on App Store Connect with the same checksum (push), or already on disk (pull).
        public var unchanged: [String] = []
        /// True when the order was (or would be) set.
        public var reordered: Bool = false
        /// Remote screenshots deleted because a local file of the same name differs from them
        /// (changed files, and failed uploads sent again).
        public var replaced: [String] = []
        /// Remote screenshots deleted because the folder lacks them (`removeMissing`); for a
        /// pull, files an earlier pull wrote that App Store Connect no longer has.
        public var removed: [String] = []
        /// Remote screenshots absent locally and kept (no `removeMissing`).
        public var kept: [String] = []
        /// Pull: screenshots App Store Connect is still processing (or failed), not downloaded.
        public var skipped: [String] = []

        /// An empty entry.
        public init(locale: String, displayType: String) {
            self.locale = locale
            self.displayType = displayType
        }
    }

    /// The entries, by locale then display type.
    public var entries: [Entry]
    /// True when nothing was sent (a dry run).
    public var dryRun: Bool
    /// True for a pull (`uploaded` then means written).
    public var pulled: Bool
    /// Pull: names App Store Connect gave that may not name a file (a locale that is not an App
    /// Store locale, an unknown display type), each skipped; one noun phrase each ("the locale 'x', which is …").
    public var ignored: [String] = []

    /// A report.
    public init(entries: [Entry], dryRun: Bool, pulled: Bool = false) {
        self.entries = entries.sorted { ($0.locale, $0.displayType) < ($1.locale, $1.displayType) }
        self.dryRun = dryRun
        self.pulled = pulled
    }

    /// A human summary, one line per locale and display type:
    /// "en-US APP_IPHONE_67: 1 uploaded (b.png), 2 unchanged, 1 replaced (b.png), reordered, 1 kept (absent locally; --remove-screenshots deletes it)".
    public var lines: [String] {
        let verb = pulled ? "written" : (dryRun ? "to upload" : "uploaded")
        return entries.map { entry in
            var parts: [String] = []
            if !entry.uploaded.isEmpty { parts.append("\(entry.uploaded.count) \(verb) (\(entry.uploaded.joined(separator: ", ")))") }
            if !entry.unchanged.isEmpty { parts.append("\(entry.unchanged.count) unchanged") }
            if !entry.replaced.isEmpty {
                parts.append("\(entry.replaced.count) \(dryRun ? "to replace" : "replaced") (\(entry.replaced.joined(separator: ", ")))")
            }
            if entry.reordered { parts.append(dryRun ? "to reorder" : "reordered") }
            if !entry.removed.isEmpty {
                parts.append("\(entry.removed.count) \(dryRun ? "to remove" : "removed") (\(entry.removed.joined(separator: ", ")))")
            }
            if !entry.kept.isEmpty {
                parts.append("\(entry.kept.count) kept (\(entry.kept.joined(separator: ", ")): absent locally; --remove-screenshots deletes "
                             + (entry.kept.count == 1 ? "it)" : "them)"))
            }
            if !entry.skipped.isEmpty {
                parts.append("\(entry.skipped.count) skipped (\(entry.skipped.joined(separator: ", ")): not processed by App Store Connect yet)")
            }
            return "\(entry.locale) \(entry.displayType): " + (parts.isEmpty ? "nothing" : parts.joined(separator: ", "))
        }
    }

    /// The report as JSON: `{"dryRun", "pulled", "entries": [{locale, displayType, uploaded, unchanged, replaced, reordered, removed, kept, skipped}]}`,
    /// with `ignored` when a pull skipped names.
    public func json() -> String {
        struct Document: Encodable {
            var dryRun: Bool
            var pulled: Bool
            var entries: [Entry]
            var ignored: [String]?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let document = Document(dryRun: dryRun, pulled: pulled, entries: entries, ignored: ignored.isEmpty ? nil : ignored)
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
