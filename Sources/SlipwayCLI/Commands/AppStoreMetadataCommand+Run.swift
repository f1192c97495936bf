import AppleAPI
import ArgumentParser
import Basics
import Foundation

/// What `appstore metadata push` and `pull` share: the key and client, errors to exit codes, and
/// the screenshot seam.
enum AppStoreMetadataRun {
    /// Which way the screenshots go.
    enum Direction { case push, pull }

    /// Loads the key (a bad key is exit 2, nothing sent), runs `body` with a client whose log
    /// lines go to standard error, and maps its errors: bad input in the folder or options is
    /// exit 2, anything App Store Connect refused exit 1. Secrets never reach the output.
    static func withClient(_ keyOptions: AppStoreKeyOptions, env: CommandEnvironment,
                           _ body: (AppStoreConnectClient) async throws -> Void) async throws {
        let key: AppStoreConnectKey
        do {
            guard let loaded = try keyOptions.load(env) else { throw ValidationError("Give the API key's id with --key-id.") }
            key = loaded
        } catch {
            env.printError(errorText(error))
            throw ExitCodes.invalidInput
        }
        let redactor = Redactor(secrets: key.secretsToMask)
        do {
            try await body(keyOptions.client(key, env: env, redactor: redactor))
        } catch let error as AppStoreListingError {
            env.printError(redactor.redact(errorText(error)))
            switch error {
            case .folderMissing, .unknownLocaleFolder, .unknownLocale, .invalidTexts, .nameRequired: throw ExitCodes.invalidInput
            default: throw ExitCodes.failure
            }
        } catch let error as FileSystemError {
            env.printError(redactor.redact(errorText(error)))
            throw ExitCodes.invalidInput
        } catch {
            env.printError(redactor.redact(errorText(error)))
            throw ExitCodes.failure
        }
    }

    /// SEAM — the screenshot sync (issue 28, point 1's screenshots). The lead wires
    /// `ScreenshotSync(client:fileSystem:)` here after merging:
    /// `.push(folder:localizations:options:)` with `localizations` (locale → version localization
    /// id) and the options below, or `.pull(folder:localizations:)`. Until then, unless
    /// `--skip-screenshots`, it returns a note that screenshots were not synced. Returns lines for
    /// the report.
    static func syncScreenshots(_ direction: Direction, client: AppStoreConnectClient, metadata: AppStoreMetadataOptions,
                                localizations: [String: String], env: CommandEnvironment) async throws -> [String] {
        guard !metadata.skipScreenshots, !metadata.json else { return [] }
        _ = (direction, client, localizations, metadata.screenshotsPath, metadata.removeScreenshots, metadata.dryRun)
        return ["screenshots: not synced (this build of Slipway handles texts only; pass --skip-screenshots to silence this)"]
    }
}
