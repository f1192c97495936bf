import Basics
import Foundation

/// What one push of the App Store listing works on: the app, the metadata folder, the version,
/// and the screenshots folder.
public struct ListingPushRequest: Sendable {
    /// The app's bundle id.
    public var bundleID: String
    /// deliver's metadata folder.
    public var folder: ListingFolder
    /// Which version and locales, dry run, live.
    public var options: ListingOptions
    /// deliver's screenshots folder (absolute); nil leaves screenshots alone.
    public var screenshotsFolder: String?
    /// Delete screenshots App Store Connect has and the folder does not.
    public var removeScreenshots: Bool
    /// Told one line per screenshot action ("en-US APP_IPHONE_67: uploading 1.png").
    public var progress: (@Sendable (String) -> Void)?

    /// A request.
    public init(bundleID: String, folder: ListingFolder, options: ListingOptions, screenshotsFolder: String?, removeScreenshots: Bool = false,
                progress: (@Sendable (String) -> Void)? = nil) {
        self.bundleID = bundleID
        self.folder = folder
        self.options = options
        self.screenshotsFolder = screenshotsFolder
        self.removeScreenshots = removeScreenshots
        self.progress = progress
    }
}

/// The folders of a push, read and checked without asking Apple.
public struct CheckedListing: Sendable {
    /// The metadata folder's texts.
    public var contents: ListingFolder.Contents
    /// The screenshots folder to push; nil when screenshots are left alone or there is none.
    public var screenshots: String?
    /// True when screenshots were asked for and there is no such folder (nothing is sent for them).
    public var screenshotsFolderMissing = false
}

/// What a push did (in a dry run: would do).
public struct ListingPushOutcome: Sendable {
    /// The texts.
    public var listing: ListingPushResult
    /// The screenshots: nil when left alone, an empty report when there is no folder.
    public var screenshots: ScreenshotSync.VersionPush?
    /// True when there was no screenshots folder.
    public var screenshotsFolderMissing = false

    /// How many screenshots were uploaded.
    public var screenshotsUploaded: Int { screenshots?.report.entries.reduce(0) { $0 + $1.uploaded.count } ?? 0 }

    /// The report's lines: the texts', then `missingFolder` when there was no screenshots folder,
    /// else the screenshots'.
    public func lines(platform: String, missingFolder: String) -> [String] {
        ListingReport.lines(listing, platform: platform) + (screenshotsFolderMissing ? [missingFolder] : screenshots?.lines ?? [])
    }
}

/// The one path of a listing push, for `slipway appstore metadata push` and the
/// `appstore.metadata` step alike (fastlane's `Deliver::Runner` has this shape): read and check
/// both folders (texts against Apple's limits, screenshots against Apple's sizes: any problem
/// stops the push before a single request), find the app, plan the texts against App Store
/// Connect, send them, then the screenshots. On the version on the App Store only promotional text
/// may change, and the screenshots are only compared: a difference stops the push before
/// anything is sent.
public struct ListingPushRunner: Sendable {
    let client: AppStoreConnectClient
    let fileSystem: any FileSystem

    /// A runner over `client`, reading through `fileSystem`.
    public init(client: AppStoreConnectClient, fileSystem: any FileSystem) {
        self.client = client
        self.fileSystem = fileSystem
    }

    /// Reads and checks both folders offline (texts: locales, UTF-8, every limit; screenshots:
    /// sizes, formats, counts, locale folders). A dry run of the step and the CLI's first step.
    /// - Throws: `AppStoreListingError`, `ScreenshotError.invalidFolder`, `FileSystemError`.
    public static func check(_ request: ListingPushRequest, fileSystem: any FileSystem) throws -> CheckedListing {
        var checked = CheckedListing(contents: try ListingSync.check(folder: request.folder, options: request.options))
        guard let folder = request.screenshotsFolder else { return checked }
        guard fileSystem.isDirectory(folder) else {
            checked.screenshotsFolderMissing = true
            return checked
        }
        try ScreenshotSync.check(folder: folder, fileSystem: fileSystem)
        checked.screenshots = folder
        return checked
    }

    /// Checks both folders (unless `checked`, what `check(_:fileSystem:)` returned for this
    /// request just before, is given), then plans and sends the texts and the screenshots (reads
    /// only in a dry run).
    /// - Throws: `AppStoreListingError`, `ScreenshotError`, `AppStoreConnectError`, `FileSystemError`.
    public func run(_ request: ListingPushRequest, checked: CheckedListing? = nil) async throws -> ListingPushOutcome {
        let fileSystem = self.fileSystem
        let checked = if let checked { checked } else {
            try await BlockingWork.run(name: "slipway-listing") { try Self.check(request, fileSystem: fileSystem) }
        }
        let app = try await client.app(bundleID: request.bundleID)
        let sync = ListingSync(client: client, fileSystem: fileSystem)
        let plan = try await sync.plan(checked.contents, app: app, options: request.options)
        var outcome = ListingPushOutcome(listing: plan.result, screenshotsFolderMissing: checked.screenshotsFolderMissing)
        if checked.screenshotsFolderMissing { outcome.screenshots = .init(report: ScreenshotReport(entries: [], dryRun: request.options.dryRun), createdLocalizations: []) }
        guard let folder = checked.screenshots else {
            outcome.listing = try await sync.send(plan)
            return outcome
        }
        let screenshots = ScreenshotSync(client: client, fileSystem: fileSystem)
        var options = ScreenshotPushOptions(removeMissing: request.removeScreenshots, dryRun: request.options.dryRun,
                                            progress: request.progress, locales: request.options.locales)
        if plan.result.live {
            // Compared only: App Store Connect keeps a live version's screenshots.
            options.dryRun = true
            var compared = try await screenshots.push(folder: folder, versionID: plan.result.versionID,
                                                      localizations: plan.result.versionLocalizationIDs, options: options)
            let changes = compared.createdLocalizations.map { "the screenshots of \($0) (a locale the version does not have)" }
                + compared.report.entries.filter(\.hasChanges).map { "the \($0.locale) \($0.displayType) screenshots" }
            if !changes.isEmpty {
                throw AppStoreListingError.liveVersionChanges(version: plan.result.versionString, platform: request.options.platform,
                                                              state: plan.versionState, changes: changes)
            }
            compared.report.dryRun = request.options.dryRun
            outcome.screenshots = compared
            outcome.listing = try await sync.send(plan)
            return outcome
        }
        outcome.listing = try await sync.send(plan)
        outcome.screenshots = try await screenshots.push(folder: folder, versionID: outcome.listing.versionID,
                                                         localizations: outcome.listing.versionLocalizationIDs, options: options)
        return outcome
    }
}

extension ScreenshotReport.Entry {
    /// True when the set would change: uploads, replacements, removals or a new order.
    var hasChanges: Bool { !uploaded.isEmpty || !replaced.isEmpty || !removed.isEmpty || reordered }
}
