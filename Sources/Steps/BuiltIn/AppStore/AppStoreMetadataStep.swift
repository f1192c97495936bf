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
            copyright.txt) and screenshots-path (deliver's layout), and checks both before anything \
            is sent: every text against Apple's limits, every screenshot against Apple's sizes \
            (every problem of the folder at once; nothing sent). Then it sends the texts that differ: name, \
            subtitle and privacy URL to the app info, the rest to the App Store version (the \
            platform's editable one, or version; create-version creates it; live: the one on the \
            App Store, which takes promotional text only). Files Slipway does not send are logged \
            as "not sent". Then the screenshots go to the version's screenshot sets, only the \
            files whose checksum differs; screenshots the folder lacks are kept unless \
            remove-screenshots. A dry run reads and checks both folders and sends nothing. See \
            docs/appstore-metadata.md and docs/screenshots.md.
            """,
        options: AppStoreConnection.specs() + [
            .required("bundle-id", .string, "The app's bundle id."),
            .optional("metadata-path", .string, default: .string("fastlane/metadata"), "The metadata folder (deliver's layout)."),
            .optional("platform", .choice(platforms), default: .string("IOS"), "The platform."),
            .optional("version", .string, "The App Store version (default: the platform's editable version)."),
            .optional("create-version", .bool, default: .bool(false), "Create version when the app does not have it."),
            .optional("live", .bool, default: .bool(false),
                      "Push to the version on the App Store (fastlane's edit_live): only promotional text may differ; anything else stops the step."),
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
        if try options.bool("live"), version != nil {
            throw StepError.invalidOption(name: "live", problem: "and version both name the version: give one")
        }
        if try options.requiredString("metadata-path").isEmpty {
            throw StepError.invalidOption(name: "metadata-path", problem: "is empty; give the metadata folder, e.g. fastlane/metadata")
        }
        self.options = options
    }

    /// The push the options describe (`ListingPushRunner` reads, checks and sends it).
    func request(in context: StepContext, dryRun: Bool) throws -> ListingPushRequest {
        let locales = try options.strings("locales")
        let events = context.events
        return ListingPushRequest(
            bundleID: try options.requiredString("bundle-id"),
            folder: ListingFolder(path: context.resolve(try options.requiredString("metadata-path")), fileSystem: context.fileSystem),
            options: ListingOptions(platform: try options.requiredString("platform"), version: try options.string("version"),
                                    createVersion: try options.bool("create-version"), locales: locales.isEmpty ? nil : Set(locales),
                                    dryRun: dryRun, live: try options.bool("live")),
            screenshotsFolder: try options.bool("skip-screenshots") ? nil : context.resolve(try options.requiredString("screenshots-path")),
            removeScreenshots: try options.bool("remove-screenshots"),
            progress: { events.log(.info, "screenshots: " + $0) })
    }

    public func plan(in context: StepContext) async throws -> [Effect] {
        try connection.key(in: context)
        let request = try request(in: context, dryRun: true)
        let fileSystem = context.fileSystem
        let checked = try await BlockingWork.run(name: "slipway-listing") { try ListingPushRunner.check(request, fileSystem: fileSystem) }
        let version = try options.bool("live") ? "the version on the App Store, promotional text only"
            : try options.string("version").map { "version \($0)" } ?? "the editable App Store version"
        let locales = checked.contents.locales.count
        var effects = [Effect(.network, "send the texts of \(locales) locale\(locales == 1 ? "" : "s") "
                              + "of \(request.bundleID) that differ on App Store Connect (\(version), \(request.options.platform))")]
        if request.options.createVersion { effects.append(Effect(.network, "create \(version) unless it exists")) }
        for file in checked.contents.unsent { effects.append(Effect(.other, file.description)) }
        if checked.screenshots != nil {
            effects.append(Effect(.network, "upload the screenshots in \(try options.requiredString("screenshots-path")) whose checksum differs"
                                  + (request.removeScreenshots ? ", and delete those the folder lacks" : "")))
        }
        return effects
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        try await AppStoreStepSupport.masked(context) { context, _ in try await runMasked(in: context) }
    }

    private func runMasked(in context: StepContext) async throws -> StepOutputs {
        let client = try await connection.client(context: context)
        let request = try request(in: context, dryRun: false)
        let outcome = try await ListingPushRunner(client: client, fileSystem: context.fileSystem).run(request)
        let missing = "screenshots: none sent, there is no folder '\(try options.requiredString("screenshots-path"))'"
        for line in outcome.lines(platform: request.options.platform, missingFolder: missing) { context.events.log(.info, line) }
        return ["version-id": outcome.listing.versionID, "sent": String(outcome.listing.changes.count),
                "unchanged": String(outcome.listing.unchangedTexts), "screenshots-uploaded": String(outcome.screenshotsUploaded)]
    }
}
