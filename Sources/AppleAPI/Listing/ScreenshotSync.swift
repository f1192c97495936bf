import Basics
import Foundation

/// Makes App Store Connect's screenshot sets match deliver's screenshots folder, and back.
///
/// Push: the folder is read and checked first (sizes, formats, at most 10 per set: every problem
/// at once, nothing sent), then per locale and display type the remote set is read and compared
/// by MD5 (`sourceFileChecksum`): unchanged files are not sent again; new or changed ones go
/// through Apple's asset upload (reserve `POST /v1/appScreenshots`, send the upload operations,
/// commit with `uploaded` and the checksum, wait for `assetDeliveryState` COMPLETE); the order is
/// set with `PATCH /v1/appScreenshotSets/{id}/relationships/appScreenshots` when it differs.
/// Remote screenshots the folder lacks are kept and reported, unless `removeMissing`. Locales
/// without a folder are not touched. See docs/screenshots.md.
public struct ScreenshotSync: Sendable {
    let client: AppStoreConnectClient
    let fileSystem: any FileSystem
    /// The largest image `pull` downloads.
    let maximumDownloadBytes: Int

    /// A sync over `client`, reading and writing through `fileSystem`.
    public init(client: AppStoreConnectClient, fileSystem: any FileSystem, maximumDownloadBytes: Int = 64 << 20) {
        self.client = client
        self.fileSystem = fileSystem
        self.maximumDownloadBytes = maximumDownloadBytes
    }

    /// The roles that may change an App Store version's screenshots.
    public static let roles = ["Admin", "App Manager", "Marketing"]

    /// Reads and checks the folder without asking Apple (sizes, formats, at most 10 per set,
    /// locale folder names): `ListingPushRunner.check` calls it, so that the CLI's push and the
    /// `appstore.metadata` step send nothing at all, not even the texts, for a folder Apple would
    /// refuse.
    /// - Throws: `ScreenshotError.noFolder`, `.invalidFolder` with every problem.
    public static func check(folder: String, fileSystem: any FileSystem) throws {
        _ = try ScreenshotFolder.read(folder, localizations: nil, fileSystem: fileSystem)
    }

    /// Reads deliver's screenshot folder and makes Apple's sets match it.
    /// - Parameter localizations: App Store locale → `appStoreVersionLocalizations` id.
    /// - Throws: `ScreenshotError` (`.invalidFolder` before anything is sent; `.processingFailed`
    ///   after the rest was sent), `AppStoreConnectError`.
    public func push(folder: String, localizations: [String: String], options: ScreenshotPushOptions = ScreenshotPushOptions())
        async throws -> ScreenshotReport {
        let fileSystem = self.fileSystem
        let groups = try await BlockingWork.run(name: "slipway-screenshots") {
            try ScreenshotFolder.read(folder, localizations: localizations, fileSystem: fileSystem)
        }.filter { options.locales?.contains($0.locale) ?? true }
        var plans: [SetPlan] = []
        for locale in Set(groups.map(\.locale)).sorted() {
            guard let localizationID = localizations[locale] else { continue }
            let remote = try await remoteSets(localizationID: localizationID, locale: locale)
            let local = groups.filter { $0.locale == locale }
            for group in local {
                plans.append(SetPlan(locale: locale, localizationID: localizationID, displayType: group.displayType, local: group.files,
                                     remote: remote.first { $0.displayType == group.displayType }, removeMissing: options.removeMissing))
            }
            for set in remote where !local.contains(where: { $0.displayType == set.displayType }) && !set.screenshots.isEmpty {
                plans.append(SetPlan(locale: locale, localizationID: localizationID, displayType: set.displayType, local: [], remote: set,
                                     removeMissing: options.removeMissing))
            }
        }
        let tooMany = plans.filter { $0.local.count + $0.kept.count > ScreenshotDisplayTypes.maximumPerSet && !$0.local.isEmpty }
        if !tooMany.isEmpty {
            throw ScreenshotError.invalidFolder(path: folder, problems: tooMany.map { plan in
                "\(plan.locale) \(plan.displayType): \(plan.local.count) local screenshots and \(plan.kept.count) kept on App Store Connect "
                    + "(\(plan.kept.map(\.fileName).joined(separator: ", "))) are more than Apple's "
                    + "\(ScreenshotDisplayTypes.maximumPerSet): pass --remove-screenshots to delete the ones absent locally"
            })
        }
        if options.dryRun {
            return ScreenshotReport(entries: plans.map { $0.entry(reordered: $0.orderChanges) }, dryRun: true)
        }
        var entries: [ScreenshotReport.Entry] = []
        var failures: [String] = []
        for plan in plans {
            entries.append(try await execute(plan, options: options, failures: &failures))
        }
        if !failures.isEmpty { throw ScreenshotError.processingFailed(problems: failures) }
        return ScreenshotReport(entries: entries, dryRun: false)
    }

    /// Carries out one set's plan; failed uploads go to `failures`.
    private func execute(_ plan: SetPlan, options: ScreenshotPushOptions, failures: inout [String]) async throws -> ScreenshotReport.Entry {
        let say = options.progress ?? { _ in }
        let label = "\(plan.locale) \(plan.displayType)"
        for screenshot in plan.replacements + plan.removals {
            say("\(label): removing \(screenshot.fileName) (\(screenshot.id))")
            try await deleteScreenshot(screenshot)
        }
        guard !plan.local.isEmpty else { return plan.entry(reordered: false) }
        let setID: String
        if let remote = plan.remote { setID = remote.id } else {
            say("\(label): creating the screenshot set")
            setID = try await createSet(plan)
        }
        var ids: [String: String] = plan.matched    // local path → remote id
        for file in plan.uploads {
            say("\(label): uploading \(file.fileName)")
            switch try await upload(file, setID: setID, options: options) {
            case .success(let id): ids[file.path] = id
            case .failure(let problem): failures.append("\(label) '\(file.path)': \(problem.text)")
            }
        }
        let current = try await screenshots(ofSet: setID, label: label).map(\.id)
        let wanted = plan.local.compactMap { ids[$0.path] }
        let desired = wanted + current.filter { !wanted.contains($0) }
        let reorder = desired != current
        if reorder {
            say("\(label): setting the order")
            _ = try await client.send(AppStoreConnectRequest(
                .patch, "/v1/appScreenshotSets/\(setID)/relationships/appScreenshots",
                body: JSONAPI.linkage(desired.map { JSONAPIIdentifier(type: "appScreenshots", id: $0) }),
                action: "set the order of the \(label) screenshots", roles: Self.roles, retry: .blindly))
        }
        return plan.entry(reordered: reorder)
    }
}

/// What one set needs: which local files are already there, which to send, which remote ones
/// go (`removals`) or stay (`kept`).
struct SetPlan {
    var locale: String
    var localizationID: String
    var displayType: String
    var local: [LocalScreenshot]
    var remote: RemoteScreenshotSet?
    /// Local path → the remote screenshot with its checksum.
    var matched: [String: String] = [:]
    var uploads: [LocalScreenshot] = []
    /// Remote screenshots named as a local file to send: that file changed, or their upload failed.
    var replacements: [RemoteScreenshot] = []
    var removals: [RemoteScreenshot] = []
    var kept: [RemoteScreenshot] = []

    init(locale: String, localizationID: String, displayType: String, local: [LocalScreenshot], remote: RemoteScreenshotSet?,
         removeMissing: Bool) {
        self.locale = locale
        self.localizationID = localizationID
        self.displayType = displayType
        self.local = local
        self.remote = remote
        var available = (remote?.screenshots ?? []).filter(\.isDelivered)
        for file in local {
            if let index = available.firstIndex(where: { $0.checksum == file.checksum }) {
                matched[file.path] = available[index].id
                available.remove(at: index)
            } else {
                uploads.append(file)
            }
        }
        let used = Set(matched.values)
        for screenshot in remote?.screenshots ?? [] where !used.contains(screenshot.id) {
            if uploads.contains(where: { $0.fileName == screenshot.fileName }) {
                replacements.append(screenshot)
            } else if removeMissing {
                removals.append(screenshot)
            } else {
                kept.append(screenshot)
            }
        }
    }

    /// Whether the set's order changes (for a dry run: new files count as appended by Apple).
    var orderChanges: Bool {
        guard !local.isEmpty else { return false }
        let removed = Set((removals + replacements).map(\.id))
        let current = (remote?.screenshots ?? []).map(\.id).filter { !removed.contains($0) } + uploads.map { "new:" + $0.path }
        let wanted = local.map { matched[$0.path] ?? "new:" + $0.path }
        return wanted + current.filter { !wanted.contains($0) } != current
    }

    func entry(reordered: Bool) -> ScreenshotReport.Entry {
        var entry = ScreenshotReport.Entry(locale: locale, displayType: displayType)
        entry.uploaded = uploads.map(\.fileName)
        entry.unchanged = local.filter { matched[$0.path] != nil }.map(\.fileName)
        entry.replaced = replacements.map(\.fileName)
        entry.removed = removals.map(\.fileName)
        entry.kept = kept.map(\.fileName)
        entry.reordered = reordered
        return entry
    }
}
