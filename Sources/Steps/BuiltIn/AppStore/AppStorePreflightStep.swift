import AppleAPI
import Basics
import Foundation
import Preflight

/// `appstore.preflight`: what App Store Connect would refuse, found before the archive (the
/// same rules as `slipway preflight`, docs/preflight.md). App Store lanes put it first.
public struct AppStorePreflightStep: Step {
    public static let description = StepDescription(
        id: "appstore.preflight",
        summary: "Check the release before the archive: version, build number, embedded targets, Info.plist, privacy manifest, signing, listing",
        discussion: """
            Runs slipway preflight's rules (docs/preflight.md) and fails when one finds what App \
            Store Connect would refuse, listing every problem at once with its file:line (or App \
            Store Connect resource), the rule, what to do and Apple's document. The offline rules \
            always run; with a key, the rules that compare with App Store Connect run too (the \
            version above the last released, its train open, equal to the version being prepared, \
            the build number above every uploaded build, the app's bundle id). Warnings and notes \
            are logged and do not fail the step. A dry run lists what would be checked.
            """,
        options: AppStoreConnection.specs(keyIDRequired: false) + [
            .optional("xcodeproj", .string, "The .xcodeproj (default: the one in the project's root, or one folder down)."),
            .optional("configuration", .string, default: .string("Release"), "The build configuration whose settings ship."),
            .optional("distribution", .choice(["app-store", "ad-hoc", "development", "enterprise"]), default: .string("app-store"),
                      "The profiles' kind checked by the signing rule."),
            .optional("platform", .choice(["IOS", "MAC_OS", "TV_OS", "VISION_OS"]), default: .string("IOS"),
                      "The App Store Connect platform; in a project of several apps, the one whose SDKROOT is the platform's is checked."),
            .optional("app", .string, "The application target to check, in a project holding several (an iOS and a Mac app)."),
            .optional("destination", .choice(["app-store", "testflight"]), default: .string("app-store"),
                      "Where the upload goes: app-store (a release for review) or testflight (a beta only: the version being prepared and the listing are not checked)."),
            .optional("profiles-path", .string, "A folder of provisioning profiles to check signing against (skipped without)."),
            .optional("metadata-path", .string, default: .string("fastlane/metadata"), "deliver's metadata folder (skipped when missing)."),
            .optional("screenshots-path", .string, default: .string("fastlane/screenshots"), "deliver's screenshots folder (skipped when missing)."),
        ],
        outputs: [OutputSpec("errors", "How many errors were found (0 when the step passes)."),
                  OutputSpec("warnings", "How many warnings were found.")],
        examples: [
            StepExample("Check the release offline, first in the lane", """
                - appstore.preflight:
                    configuration: Release
                """),
            AppStoreConnection.example("Also compare with App Store Connect", """
                - appstore.preflight:
                    profiles-path: signing/profiles
                """),
        ],
        platforms: [.linux, .macOS]
    )

    let options: StepOptions
    let connection: AppStoreConnection

    public init(options: StepOptions) throws {
        connection = try AppStoreConnection(optionalKeyIn: options)
        for name in ["xcodeproj", "profiles-path", "metadata-path", "screenshots-path", "configuration", "app"] {
            if let value = try options.string(name), value.isEmpty {
                throw StepError.invalidOption(name: name, problem: "is empty; leave it out or give a path")
            }
        }
        self.options = options
    }

    func preflightOptions(in context: StepContext) throws -> PreflightOptions {
        var result = PreflightOptions(root: context.projectDirectory)
        result.xcodeproj = try options.string("xcodeproj").map(context.resolve)
        result.configuration = try options.requiredString("configuration")
        result.distribution = try options.requiredString("distribution")
        result.platform = try options.requiredString("platform")
        result.app = try options.string("app")
        result.destination = try options.requiredString("destination")
        result.profilesPath = try options.string("profiles-path").map(context.resolve)
        result.metadataPath = try options.string("metadata-path").map(context.resolve)
        result.screenshotsPath = try options.string("screenshots-path").map(context.resolve)
        result.now = context.services.now()
        return result
    }

    public func plan(in context: StepContext) async throws -> [Effect] {
        let key = try connection.key(in: context)
        let offline = PreflightRegistry.all.filter { !$0.needsAppStoreConnect }.count
        return [Effect(.other, "run \(offline) offline preflight rules" + (key == nil ? "" : " and read App Store Connect for the remote ones"))]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        try await AppStoreStepSupport.masked(context) { context, _ in try await runMasked(in: context) }
    }

    private func runMasked(in context: StepContext) async throws -> StepOutputs {
        let settings = try preflightOptions(in: context)
        let fileSystem = context.fileSystem
        var preflight = try await BlockingWork.run(name: "slipway-preflight") { PreflightRunner.context(options: settings, fileSystem: fileSystem) }
        if try connection.key(in: context) != nil {
            try await PreflightRemote.attach(client: try await connection.client(context: context), to: &preflight)
        }
        let report = PreflightRunner().run(preflight)
        if let application = report.application { context.events.log(.info, application) }
        for finding in report.findings {
            let level: LogLevel = finding.severity == .error ? .error : finding.severity == .warning ? .warning : .info
            context.events.log(level, "\(finding.location): [\(finding.rule)] \(finding.message) Fix: \(finding.advice) (\(finding.citation))")
        }
        for skip in report.skipped { context.events.log(.info, "skipped \(skip.rule): \(skip.reason)") }
        let errors = report.findings.filter { $0.severity == .error }.count
        if errors > 0 {
            throw StepError.failed("preflight found \(errors) problem\(errors == 1 ? "" : "s") App Store Connect would refuse (listed above); fix them before the archive")
        }
        return ["errors": "0", "warnings": String(report.findings.filter { $0.severity == .warning }.count)]
    }
}
