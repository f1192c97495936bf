import AppleAPI
import ArgumentParser
import Basics
import Foundation

/// What `appstore metadata push` and `pull` share: the key and client, errors to exit codes, and
/// the screenshot sync after the texts.
enum AppStoreMetadataRun {
    /// Which way the screenshots go.
    enum Direction { case push, pull }

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

    /// Before anything is sent: the screenshots folder's images, sizes, counts and locale folder
    /// names (exit 2 with every problem). A missing folder is not an error here: `syncScreenshots`
    /// reports it.
    static func checkScreenshots(_ metadata: AppStoreMetadataOptions, env: CommandEnvironment) throws {
        let folder = screenshotsFolder(metadata, env: env)
        guard !metadata.skipScreenshots, env.fileSystem.isDirectory(folder) else { return }
        do {
            try ScreenshotSync.check(folder: folder, fileSystem: env.fileSystem)
        } catch {
            env.printError(errorText(error))
            throw ExitCodes.invalidInput
        }
    }

    /// The screenshot sync (docs/screenshots.md) after the texts: `ScreenshotSync.push` or `.pull`
    /// over the version's localizations (locale → version localization id), limited to
    /// `--locales`. Returns the report, or nil with `--skip-screenshots`; a push without a
    /// screenshots folder returns an empty report and says so in `note`.
    static func syncScreenshots(_ direction: Direction, client: AppStoreConnectClient, metadata: AppStoreMetadataOptions,
                                versionID: String, localizations: [String: String], env: CommandEnvironment) async throws
        -> (report: ScreenshotReport?, note: String?) {
        guard !metadata.skipScreenshots else { return (nil, nil) }
        let folder = screenshotsFolder(metadata, env: env)
        let sync = ScreenshotSync(client: client, fileSystem: env.fileSystem)
        switch direction {
        case .push:
            guard env.fileSystem.isDirectory(folder) else {
                return (ScreenshotReport(entries: [], dryRun: metadata.dryRun),
                        "screenshots: none sent, there is no folder '\(metadata.screenshotsPath)' (give --screenshots-path, or --skip-screenshots)")
            }
            let errors = env.standardError
            let progress: @Sendable (String) -> Void = { line in errors.write("screenshots: " + line + "\n") }
            let options = ScreenshotPushOptions(removeMissing: metadata.removeScreenshots, dryRun: metadata.dryRun,
                                                progress: metadata.json ? nil : progress, locales: metadata.localeSet)
            let pushed = try await sync.push(folder: folder, versionID: versionID, localizations: localizations, options: options)
            return (pushed.report, pushed.createdLocalizations.isEmpty ? nil : pushed.lines.prefix(pushed.createdLocalizations.count).joined(separator: "\n"))
        case .pull:
            let wanted = localizations.filter { metadata.localeSet?.contains($0.key) ?? true }
            return (try await sync.pull(folder: folder, localizations: wanted), nil)
        }
    }

    /// The report printed: the texts' lines then the screenshots', or one JSON object with the
    /// listing's keys and `screenshots` (the screenshot report's JSON, null when skipped).
    static func output(listingJSON: String, listingLines: [String], screenshots: (report: ScreenshotReport?, note: String?),
                       json: Bool) -> String {
        guard json else {
            return (listingLines + (screenshots.note.map { [$0] } ?? []) + (screenshots.report?.lines ?? [])).joined(separator: "\n")
        }
        guard var object = (try? JSONSerialization.jsonObject(with: Data(listingJSON.utf8))) as? [String: Any] else { return listingJSON }
        object["screenshots"] = screenshots.report.flatMap { try? JSONSerialization.jsonObject(with: Data($0.json().utf8)) } ?? NSNull()
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data(listingJSON.utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
