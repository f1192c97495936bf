import AppleAPI
import ArgumentParser
import Basics
import Foundation
import Preflight

/// `slipway preflight`: what App Store Connect would refuse, found from Linux before the archive.
struct PreflightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preflight",
        abstract: "Find what App Store Connect would refuse in this release, before the archive.",
        discussion: """
            Reads the project (targets, settings, xcconfig chains, Info.plists, entitlements, \
            asset catalogs, privacy manifests), the provisioning profiles in --profiles and the \
            listing folders, and reports every problem at once: where it is (file:line, or the \
            App Store Connect resource), the rule, what to do, and the Apple document or ITMS \
            error it prevents. Offline rules always run. Give an App Store Connect API key and \
            the remote rules run too: the version is above the last one released, its train is \
            not closed, it is the version being prepared, the build number is above every build \
            uploaded for it (every page read), and the app exists with the target's bundle id. \
            The output ends with which rules ran and which were skipped, and why. \
            --rules lists them; docs/preflight.md explains each and what Slipway cannot decide.

            Exit status: 0 nothing App Store Connect would refuse (warnings and notes may be \
            printed), 2 at least one error, or the key or project options are unusable. Under \
            GitHub Actions (GITHUB_ACTIONS=true) each finding is also an annotation at its file and line.

            EXAMPLES:
              slipway preflight
              slipway preflight --xcodeproj App/App.xcodeproj --profiles signing/profiles
              slipway preflight --json > preflight.json
              slipway preflight --issuer-id 69a6de7e-... --key-id ABC123DEFG --key-file AuthKey.p8
              slipway preflight --rules
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var key: AppStoreKeyOptions

    @Option(help: ArgumentHelp("The .xcodeproj (default: the one in the project's root, or one folder down).", valueName: "path"))
    var xcodeproj: String?

    @Option(help: ArgumentHelp("The build configuration whose settings ship.", valueName: "name"))
    var configuration = "Release"

    @Option(help: ArgumentHelp("The lane's distribution, the profiles' kind: app-store, ad-hoc, development or enterprise.", valueName: "kind"))
    var distribution = "app-store"

    @Option(help: ArgumentHelp("The App Store Connect platform: IOS, MAC_OS, TV_OS or VISION_OS. In a project of several apps, the one whose SDKROOT is the platform's is checked.", valueName: "platform"))
    var platform = "IOS"

    @Option(help: ArgumentHelp("The application target to check, in a project holding several (an iOS and a Mac app).", valueName: "target"))
    var app: String?

    @Option(help: ArgumentHelp("Where the upload goes: app-store (a release for review) or testflight (a beta only: the version being prepared and the listing are not checked).", valueName: "where"))
    var destination = "app-store"

    @Option(help: ArgumentHelp("A folder of provisioning profiles to check signing against (the signing rule is skipped without).", valueName: "dir"))
    var profiles: String?

    @Option(name: .customLong("metadata-path"), help: ArgumentHelp("deliver's metadata folder (skipped when missing).", valueName: "dir"))
    var metadataPath = "fastlane/metadata"

    @Option(name: .customLong("screenshots-path"), help: ArgumentHelp("deliver's screenshots folder (skipped when missing).", valueName: "dir"))
    var screenshotsPath = "fastlane/screenshots"

    @Flag(help: "Print the report as JSON (keys sorted; findings, ran, skipped).")
    var json = false

    @Flag(help: "List the rules and exit.")
    var rules = false

    func validate() throws {
        guard ["app-store", "testflight"].contains(destination) else {
            throw ValidationError("--destination '\(destination)' is not one of app-store, testflight.")
        }
        guard ["app-store", "ad-hoc", "development", "enterprise"].contains(distribution) else {
            throw ValidationError("--distribution '\(distribution)' is not one of app-store, ad-hoc, development, enterprise.")
        }
        guard ["IOS", "MAC_OS", "TV_OS", "VISION_OS"].contains(platform) else {
            throw ValidationError("--platform '\(platform)' is not one of IOS, MAC_OS, TV_OS, VISION_OS.")
        }
        try key.check(required: false)
    }

    func run() async throws {
        let env = global.environment()
        if rules {
            env.standardOutput.write(PreflightRegistry.list())
            return
        }
        func resolve(_ path: String) -> String { path.hasPrefix("/") ? path : env.projectDirectory + "/" + path }
        var options = PreflightOptions(root: env.projectDirectory)
        options.xcodeproj = xcodeproj.map(resolve)
        options.configuration = configuration
        options.distribution = distribution
        options.platform = platform
        options.app = app
        options.destination = destination
        options.profilesPath = profiles.map(resolve)
        options.metadataPath = resolve(metadataPath)
        options.screenshotsPath = resolve(screenshotsPath)
        options.walkBudget = PreflightFiles.budget(environment: env.environment[PreflightFiles.testBudgetVariable])
        if let given = options.xcodeproj, !env.fileSystem.isDirectory(given) {
            throw Failure.invalidInput("--xcodeproj '\(xcodeproj ?? "")': there is no such project folder; give the .xcodeproj folder", in: env)
        }
        if let folder = options.profilesPath, !env.fileSystem.isDirectory(folder) {
            throw Failure.invalidInput("--profiles '\(profiles ?? "")': there is no such folder; give the folder holding the .mobileprovision files", in: env)
        }
        let fileSystem = env.fileSystem
        var context = PreflightRunner.context(options: options, fileSystem: fileSystem)
        if key.keyId != nil {
            try await attachRemoteFacts(&context, env: env)
        }
        let report = PreflightRunner().run(context)
        env.standardOutput.write(json ? try report.json() : report.human(style: env.style))
        if env.environment.isGitHubActions { env.standardOutput.write(report.githubAnnotations()) }
        if report.hasErrors { throw Failure.invalidInput(in: env) }
    }

    /// App Store Connect's facts with the given key (the one place this command sets up a client).
    private func attachRemoteFacts(_ context: inout PreflightContext, env: CommandEnvironment) async throws {
        let session = try key.openOrReport(env)
        try await session.run(env) { client in try await PreflightRemote.attach(client: client, to: &context) }
    }
}
