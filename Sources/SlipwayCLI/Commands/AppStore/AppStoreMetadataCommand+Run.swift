import AppleAPI
import ArgumentParser
import Basics
import Foundation

/// What `appstore metadata push` and `pull` share: the key and client, errors to exit codes, and
/// the report; and pull's screenshot sync after the texts (push's is `ListingPushRunner`'s).
enum AppStoreMetadataRun {
    /// Loads the key (a bad key is exit 2, nothing sent), runs `body` with a client whose log
    /// lines go to standard error, and reports its errors with the exit code each carries: bad
    /// input in the folder or options is exit 2, anything App Store Connect refused exit 1.
    /// Secrets never reach the output.
    static func withClient(_ keyOptions: AppStoreKeyOptions, env: CommandEnvironment,
                           _ body: (AppStoreConnectClient) async throws -> Void) async throws {
        try await keyOptions.openOrReport(env).run(env, body)
    }

    /// The screenshots folder, absolute.
    static func screenshotsFolder(_ metadata: AppStoreMetadataOptions, env: CommandEnvironment) -> String {
        metadata.screenshotsPath.hasPrefix("/") ? metadata.screenshotsPath : env.projectDirectory + "/" + metadata.screenshotsPath
    }

    /// The screenshot pull (docs/screenshots.md) after the texts, over the version's
    /// localizations (locale → version localization id) limited to `--locales`; nil with
    /// `--skip-screenshots`.
    static func pullScreenshots(client: AppStoreConnectClient, metadata: AppStoreMetadataOptions, localizations: [String: String],
                                env: CommandEnvironment) async throws -> ScreenshotReport? {
        guard !metadata.skipScreenshots else { return nil }
        let wanted = localizations.filter { metadata.localeSet?.contains($0.key) ?? true }
        return try await ScreenshotSync(client: client, fileSystem: env.fileSystem).pull(folder: screenshotsFolder(metadata, env: env), localizations: wanted)
    }

    /// The report printed: `lines`, or one JSON object with the listing's keys and `screenshots`
    /// (the screenshot report's JSON, null when skipped).
    static func output(listingJSON: String, lines: [String], screenshots: ScreenshotReport?, json: Bool) -> String {
        guard json else { return lines.joined(separator: "\n") }
        guard var object = (try? JSONSerialization.jsonObject(with: Data(listingJSON.utf8))) as? [String: Any] else { return listingJSON }
        object["screenshots"] = screenshots.flatMap { try? JSONSerialization.jsonObject(with: Data($0.json().utf8)) } ?? NSNull()
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data(listingJSON.utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
