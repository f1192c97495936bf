import Basics
import Foundation

extension ScreenshotSync {
    /// What `push(folder:versionID:localizations:options:)` did: the report, and the locales
    /// whose version localization it created (or, in a dry run, would create) for their
    /// screenshots.
    public struct VersionPush: Sendable {
        /// The screenshot report.
        public var report: ScreenshotReport
        /// Locales that had screenshots and no version localization: created, or to create.
        public var createdLocalizations: [String]
        /// The report's lines, after one line per created localization.
        public var lines: [String] {
            createdLocalizations.map { "\($0): \(report.dryRun ? "would add" : "added") the locale to the App Store version for its screenshots" }
                + report.lines
        }
    }

    /// Pushes the folder to App Store version `versionID`. A locale folder with screenshots whose
    /// locale the version does not have yet (its texts may all live in the app info, as a
    /// `name.txt` alone does) gets the version localization first, as deliver does; in a dry run
    /// it is reported and its screenshots are checked but not compared.
    /// - Parameter localizations: the version's localizations (locale → id), as the listing push
    ///   left them.
    public func push(folder: String, versionID: String, localizations: [String: String], options: ScreenshotPushOptions) async throws
        -> VersionPush {
        let fileSystem = self.fileSystem
        // Names only: `push` below reads and checks (and hashes) every image once.
        let locales = try await BlockingWork.run(name: "slipway-screenshots") {
            try ScreenshotFolder.localesWithImages(folder, fileSystem: fileSystem)
        }
        let missing = locales.filter { localizations[$0] == nil && (options.locales?.contains($0) ?? true) }.sorted()
        var localizations = localizations
        var options = options
        if options.dryRun {
            // Not on Apple yet: read and checked as any locale, left out of the comparison.
            for locale in missing { localizations[locale] = "" }
            options.locales = (options.locales ?? locales).subtracting(missing)
        } else {
            // Nothing is created for a folder that would then be refused.
            if !missing.isEmpty { try await BlockingWork.run(name: "slipway-screenshots") { try Self.check(folder: folder, fileSystem: fileSystem) } }
            for locale in missing {
                options.progress?("adding the locale \(locale) to the App Store version")
                localizations[locale] = try await client.createVersionLocalization(
                    versionID: versionID, locale: locale, attributes: [:], action: "add the locale \(locale) for its screenshots")
            }
        }
        return VersionPush(report: try await push(folder: folder, localizations: localizations, options: options), createdLocalizations: missing)
    }
}
