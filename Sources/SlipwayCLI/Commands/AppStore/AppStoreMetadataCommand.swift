import AppleAPI
import ArgumentParser
import Basics
import Foundation

/// `slipway appstore metadata`: the App Store listing's texts in deliver's folder layout.
struct AppStoreMetadataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metadata",
        abstract: "Pull or push the App Store listing: texts and screenshots, in deliver's fastlane folders.",
        discussion: """
            The folder has one folder per App Store locale (en-US, de-DE, ja, ...) with name.txt, \
            subtitle.txt, privacy_url.txt, description.txt, keywords.txt, promotional_text.txt, \
            release_notes.txt, support_url.txt and marketing_url.txt; default/ fills in for a \
            locale that lacks a file; copyright.txt is the version's copyright. Other files are \
            listed as "not sent". Screenshots live in fastlane/screenshots/<locale>/ (deliver's \
            layout; --screenshots-path, --skip-screenshots). See docs/appstore-metadata.md and \
            docs/screenshots.md.
            """,
        subcommands: [AppStoreMetadataPushCommand.self, AppStoreMetadataPullCommand.self]
    )
}

/// The options push and pull share.
struct AppStoreMetadataOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The app's bundle id.", valueName: "id"))
    var bundleId: String

    @Option(help: ArgumentHelp("The metadata folder (deliver's layout).", valueName: "path"))
    var metadataPath = "fastlane/metadata"

    @Option(help: ArgumentHelp("IOS, MAC_OS, TV_OS or VISION_OS.", valueName: "platform"))
    var platform = "IOS"

    @Option(help: ArgumentHelp("The App Store version (default: the platform's editable version; pull: else the live one).",
                               valueName: "x.y"))
    var version: String?

    @Option(help: ArgumentHelp("Only these locales, comma-separated (e.g. en-US,de-DE).", valueName: "codes"))
    var locales: String?

    @Flag(help: "Show what would be sent or written; send and write nothing.")
    var dryRun = false

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Flag(help: "Leave screenshots alone.")
    var skipScreenshots = false

    @Option(help: ArgumentHelp("The screenshots folder (deliver's layout).", valueName: "path"))
    var screenshotsPath = "fastlane/screenshots"

    @Flag(help: "push: remove screenshots on App Store Connect that the folder does not have.")
    var removeScreenshots = false

    @Flag(help: "The version on the App Store (fastlane's edit_live); push changes its promotional text only.")
    var live = false

    static let platforms = ["IOS", "MAC_OS", "TV_OS", "VISION_OS"]

    func check() throws {
        guard Self.platforms.contains(platform) else {
            throw ValidationError("--platform must be one of \(Self.platforms.joined(separator: ", ")), not '\(platform)'.")
        }
        if let locales, localeSet == nil || localeSet?.isEmpty == true {
            throw ValidationError("--locales must list locale codes separated by commas, not '\(locales)'.")
        }
        if let version, version.isEmpty || version.contains(where: \.isWhitespace) {
            throw ValidationError("--version must be a version string such as 1.4.0, not '\(version)'.")
        }
        if live, version != nil { throw ValidationError("--live and --version both name the version: give one.") }
    }

    var localeSet: Set<String>? {
        guard let locales else { return nil }
        let codes = locales.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        return codes.contains(where: \.isEmpty) ? nil : Set(codes)
    }

    func listingOptions(createVersion: Bool) -> ListingOptions {
        ListingOptions(platform: platform, version: version, createVersion: createVersion, locales: localeSet, dryRun: dryRun, live: live)
    }

    /// The push these options describe; screenshot progress goes to standard error (not with --json).
    func pushRequest(_ env: CommandEnvironment, createVersion: Bool) -> ListingPushRequest {
        let errors = env.standardError
        let write: @Sendable (String) -> Void = { line in errors.write("screenshots: " + line + "\n") }
        let progress = json ? nil : write
        let screenshots: String? = skipScreenshots ? nil : AppStoreMetadataRun.screenshotsFolder(self, env: env)
        return ListingPushRequest(bundleID: bundleId, folder: folder(env), options: listingOptions(createVersion: createVersion),
                                  screenshotsFolder: screenshots, removeScreenshots: removeScreenshots, progress: progress)
    }

    func folder(_ env: CommandEnvironment) -> ListingFolder {
        ListingFolder(path: metadataPath.hasPrefix("/") ? metadataPath : env.projectDirectory + "/" + metadataPath, fileSystem: env.fileSystem)
    }
}

/// `slipway appstore metadata push`.
struct AppStoreMetadataPushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send the metadata folder's texts and the screenshots to App Store Connect (only what changed).",
        discussion: """
            Every text is checked against Apple's limits first (name and subtitle 30 characters, \
            keywords 100, promotional text 170, description and What's New 4,000; URLs http(s)); \
            any violation is reported with its file and nothing is sent (exit 2). Then only texts \
            that differ from App Store Connect are sent; a locale with no change gets no request. \
            Texts the folder does not have are left as they are. The screenshots folder is \
            checked first too (Apple's pixel sizes per display type, formats, 10 per set); then \
            only files whose MD5 differs from Apple's are uploaded, the order is kept, and \
            screenshots the folder lacks are kept unless --remove-screenshots. With --live, the \
            version on the App Store: only its promotional text is sent, and any other difference \
            stops the push with nothing sent (Apple takes no other change without a new version).

            Examples:
              slipway appstore metadata push --bundle-id com.example.app --issuer-id ... --key-id ABC123DEFG --key-file AuthKey.p8 --dry-run
              slipway appstore metadata push --bundle-id com.example.app --version 2.1 --create-version --locales en-US,de-DE ...
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var keyOptions: AppStoreKeyOptions
    @OptionGroup var metadata: AppStoreMetadataOptions

    @Flag(help: "With --version: create that App Store version when the app does not have it.")
    var createVersion = false

    func validate() throws {
        try keyOptions.check(required: true)
        try metadata.check()
        if createVersion, metadata.version == nil { throw ValidationError("--create-version needs --version (the version to create).") }
    }

    func run() async throws {
        let env = global.environment()
        let request = metadata.pushRequest(env, createVersion: createVersion)
        // Checked before the key is read, so that a bad folder exits 2 first; the runner takes the result.
        let checked = try Failure.readingInput(env) { try ListingPushRunner.check(request, fileSystem: env.fileSystem) }
        try await AppStoreMetadataRun.withClient(keyOptions, env: env) { client in
            let outcome = try await ListingPushRunner(client: client, fileSystem: env.fileSystem).run(request, checked: checked)
            let missing = "screenshots: none sent, there is no folder '\(metadata.screenshotsPath)' (give --screenshots-path, or --skip-screenshots)"
            env.print(AppStoreMetadataRun.output(listingJSON: ListingReport.json(outcome.listing),
                                                 lines: outcome.lines(platform: metadata.platform, missingFolder: missing),
                                                 screenshots: outcome.screenshots?.report, json: metadata.json))
        }
    }
}

/// `slipway appstore metadata pull`.
struct AppStoreMetadataPullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Write App Store Connect's listing texts and screenshots into deliver's folders.",
        discussion: """
            Writes every text of every locale (each file is the text and one newline) and \
            copyright.txt, only where the folder's text differs; nothing is deleted, and files \
            Slipway does not own are left alone. Reads the editable version, else the live one, \
            or --version.

            Example:
              slipway appstore metadata pull --bundle-id com.example.app --issuer-id ... --key-id ABC123DEFG --key-file AuthKey.p8
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var keyOptions: AppStoreKeyOptions
    @OptionGroup var metadata: AppStoreMetadataOptions

    func validate() throws {
        try keyOptions.check(required: true)
        try metadata.check()
        if metadata.removeScreenshots { throw ValidationError("--remove-screenshots is for push only.") }
    }

    func run() async throws {
        let env = global.environment()
        let folder = metadata.folder(env)
        // Pull writes: a folder of the project reached through a committed link is refused.
        for relative in [metadata.metadataPath] + (metadata.skipScreenshots ? [] : [metadata.screenshotsPath]) where !relative.hasPrefix("/") {
            do {
                try StateFiles.checkPath(env.projectDirectory + "/" + relative, below: env.projectDirectory)
            } catch StateFileError.symbolicLink(let link) {
                throw Failure.invalidInput("'\(link)' is a symbolic link: pull does not write into '\(relative)' through a symbolic link (a checkout's link could "
                                           + "point anywhere). Give the real folder with --metadata-path or --screenshots-path.", in: env)
            } catch {
                throw Failure.invalidInput("'\(relative)': \(errorText(error)) Give a folder inside the project with --metadata-path or --screenshots-path.", in: env)
            }
        }
        if env.fileSystem.isDirectory(folder.path) {
            _ = try Failure.readingInput(env) { try folder.read(only: metadata.localeSet) }
        }
        try await AppStoreMetadataRun.withClient(keyOptions, env: env) { client in
            let app = try await client.app(bundleID: metadata.bundleId)
            let result = try await ListingSync(client: client, fileSystem: env.fileSystem)
                .pull(folder: folder, app: app, options: metadata.listingOptions(createVersion: false))
            let screenshots = try await AppStoreMetadataRun.pullScreenshots(client: client, metadata: metadata,
                                                                              localizations: result.versionLocalizationIDs, env: env)
            for locale in result.ignoredLocales {
                env.standardError.write(env.style.paint("warning: ", .yellow) + "App Store Connect named the locale '\(locale)', which is "
                    + "not an App Store locale: skipped, nothing was written for it (update Slipway if Apple has added it).\n")
            }
            for ignored in screenshots?.ignored ?? [] {
                env.standardError.write(env.style.paint("warning: ", .yellow) + "screenshots: App Store Connect named \(ignored): "
                    + "skipped, nothing was written or removed for it.\n")
            }
            env.print(AppStoreMetadataRun.output(listingJSON: ListingReport.json(result),
                                                 lines: ListingReport.lines(result, platform: metadata.platform) + (screenshots?.lines ?? []),
                                                 screenshots: screenshots, json: metadata.json))
        }
    }
}
