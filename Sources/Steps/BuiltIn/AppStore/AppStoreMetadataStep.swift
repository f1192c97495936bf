import AppleAPI
import Basics
import Foundation

/// `appstore.metadata`: pushes deliver's metadata folder (the App Store listing's texts) to App
/// Store Connect, sending only what changed.
public struct AppStoreMetadataStep: Step {
    static let platforms = ["IOS", "MAC_OS", "TV_OS", "VISION_OS"]

    public static let description = StepDescription(
        id: "appstore.metadata",
        summary: "Push the App Store listing's texts and screenshots from deliver's folders, only what changed",
        discussion: """
            Reads metadata-path (deliver's layout: <locale>/name.txt, subtitle.txt, \
            privacy_url.txt, description.txt, keywords.txt, promotional_text.txt, \
            release_notes.txt, support_url.txt, marketing_url.txt; default/ for missing files; \
            copyright.txt), checks every text against Apple's limits (all violations at once, \
            nothing sent), then sends the texts that differ: name, subtitle and privacy URL to the \
            app info, the rest to the App Store version (the platform's editable one, or version; \
            create-version creates it). Files Slipway does not send are logged as "not sent". Then \
            the screenshots in screenshots-path (deliver's layout, checked against Apple's sizes \
            before anything is sent) go to the version's screenshot sets, only the files whose \
            checksum differs; screenshots the folder lacks are kept unless remove-screenshots. A \
            dry run reads and checks both folders and sends nothing. See docs/appstore-metadata.md \
            and docs/screenshots.md.
            """,
        options: AppStoreConnection.specs() + [
            .required("bundle-id", .string, "The app's bundle id."),
            .optional("metadata-path", .string, default: .string("fastlane/metadata"), "The metadata folder (deliver's layout)."),
            .optional("platform", .choice(platforms), default: .string("IOS"), "The platform."),
            .optional("version", .string, "The App Store version (default: the platform's editable version)."),
            .optional("create-version", .bool, default: .bool(false), "Create version when the app does not have it."),
            .optional("locales", .list(.string), "Only these locales (default: every locale folder)."),
            .optional("screenshots-path", .string, default: .string("fastlane/screenshots"),
                      "The screenshots folder (deliver's layout); a missing folder sends no screenshots and says so."),
            .optional("skip-screenshots", .bool, default: .bool(false), "Leave screenshots alone."),
            .optional("remove-screenshots", .bool, default: .bool(false),
                      "Delete screenshots App Store Connect has and the folder does not (kept and reported otherwise)."),
        ],
        outputs: [OutputSpec("version-id", "The App Store version's id."),
                  OutputSpec("sent", "How many texts were sent."),
                  OutputSpec("unchanged", "How many texts were already as the folder has them."),
                  OutputSpec("screenshots-uploaded", "How many screenshots were uploaded (0 when skipped).")],
        examples: [
            AppStoreConnection.example("Push the listing texts of the version being prepared", """
                - appstore.metadata:
                    bundle-id: com.example.app
                    metadata-path: fastlane/metadata
                """),
        ],
        platforms: [.linux, .macOS]
    )

    let options: StepOptions
    let connection: AppStoreConnection

    public init(options: StepOptions) throws {
        connection = try AppStoreConnection(options: options)
        for code in try options.strings("locales") where !code.contains("${{") && !AppStoreLocales.isAccepted(code) {
            let suggestions = AppStoreLocales.suggestions(for: code)
            throw StepError.invalidOption(name: "locales", problem: "names '\(code)', which is not a locale App Store Connect accepts"
                + (suggestions.isEmpty ? "" : " (did you mean " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?)"))
        }
        let version = try options.string("version")
        if let version, version.isEmpty || version.contains(where: \.isWhitespace) {
            throw StepError.invalidOption(name: "version", problem: "must be a version string such as 1.4.0, not '\(version)'")
        }
        if try options.bool("create-version"), version == nil {
            throw StepError.invalidOption(name: "create-version", problem: "needs version (the version to create)")
        }
        if try options.requiredString("metadata-path").isEmpty {
            throw StepError.invalidOption(name: "metadata-path", problem: "is empty; give the metadata folder, e.g. fastlane/metadata")
        }
        self.options = options
    }

    func listingOptions(dryRun: Bool) throws -> ListingOptions {
        let locales = try options.strings("locales")
        return ListingOptions(platform: try options.requiredString("platform"), version: try options.string("version"),
                              createVersion: try options.bool("create-version"), locales: locales.isEmpty ? nil : Set(locales), dryRun: dryRun)
    }

    func folder(in context: StepContext) throws -> ListingFolder {
        ListingFolder(path: context.resolve(try options.requiredString("metadata-path")), fileSystem: context.fileSystem)
    }

    public func plan(in context: StepContext) async throws -> [Effect] {
        try connection.key(in: context)
        let contents = try ListingSync.check(folder: try folder(in: context), options: try listingOptions(dryRun: true))
        let version = try options.string("version").map { "version \($0)" } ?? "the editable App Store version"
        var effects = [Effect(.network, "send the texts of \(contents.locales.count) locale\(contents.locales.count == 1 ? "" : "s") "
                              + "of \(try options.requiredString("bundle-id")) that differ on App Store Connect (\(version), "
                              + "\(try options.requiredString("platform")))")]
        if try options.bool("create-version") { effects.append(Effect(.network, "create \(version) unless it exists")) }
        for file in contents.unsent { effects.append(Effect(.other, file.description)) }
        if let screenshots = try screenshotsFolder(in: context) {
            try ScreenshotSync.check(folder: screenshots, fileSystem: context.fileSystem)
            effects.append(Effect(.network, "upload the screenshots in \(try options.requiredString("screenshots-path")) whose checksum differs"
                                  + (try options.bool("remove-screenshots") ? ", and delete those the folder lacks" : "")))
        }
        return effects
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        try await AppStoreStepSupport.masked(context) { context, _ in try await runMasked(in: context) }
    }

    private func runMasked(in context: StepContext) async throws -> StepOutputs {
        let client = try await connection.client(context: context)
        let app = try await client.app(bundleID: try options.requiredString("bundle-id"))
        let result = try await ListingSync(client: client, fileSystem: context.fileSystem)
            .push(folder: try folder(in: context), app: app, options: try listingOptions(dryRun: false))
        for line in ListingReport.lines(result, platform: try options.requiredString("platform")) { context.events.log(.info, line) }
        var uploaded = 0
        if let screenshots = try screenshotsFolder(in: context) {
            let events = context.events
            let locales = try options.strings("locales")
            let pushed = try await ScreenshotSync(client: client, fileSystem: context.fileSystem).push(
                folder: screenshots, versionID: result.versionID, localizations: result.versionLocalizationIDs,
                options: ScreenshotPushOptions(removeMissing: try options.bool("remove-screenshots"),
                                               progress: { events.log(.info, "screenshots: " + $0) },
                                               locales: locales.isEmpty ? nil : Set(locales)))
            for line in pushed.lines { context.events.log(.info, line) }
            uploaded = pushed.report.entries.reduce(0) { $0 + $1.uploaded.count }
        } else if try !options.bool("skip-screenshots") {
            context.events.log(.info, "screenshots: none sent, there is no folder '\(try options.requiredString("screenshots-path"))'")
        }
        return ["version-id": result.versionID, "sent": String(result.changes.count), "unchanged": String(result.unchangedTexts),
                "screenshots-uploaded": String(uploaded)]
    }

    /// The screenshots folder, or nil when skipped or absent.
    func screenshotsFolder(in context: StepContext) throws -> String? {
        guard try !options.bool("skip-screenshots") else { return nil }
        let path = context.resolve(try options.requiredString("screenshots-path"))
        return context.fileSystem.isDirectory(path) ? path : nil
    }
}
