import Basics
import Foundation
import Xcode

/// `xcode.archive`: `xcodebuild archive` to an `.xcarchive`, and what the archive says of the app.
public struct XcodeArchiveStep: Step, ProjectCheckedStep {
    public static let description = StepDescription(
        id: "xcode.archive",
        summary: "Archive an Xcode scheme into an .xcarchive (macOS only)",
        discussion: """
            Runs 'xcodebuild archive' (the configuration defaults to the scheme's archive \
            configuration, usually Release) and reads the archive's Info.plist: the app's bundle \
            id, version and build number become outputs, ready for xcode.export and the upload steps.
            """,
        options: XcodeSchemeOptions.specs + [
            .optional("archive-path", .string, "Where the .xcarchive goes (default build/SCHEME.xcarchive; replaced when it exists)."),
            .optional("allow-provisioning-updates", .bool, default: .bool(false), "Let xcodebuild create and update profiles (-allowProvisioningUpdates)."),
        ],
        outputs: [
            OutputSpec("archive", "The .xcarchive.", file: true), OutputSpec("bundle-id", "The app's bundle identifier."),
            OutputSpec("version", "CFBundleShortVersionString."), OutputSpec("build-number", "CFBundleVersion."),
            OutputSpec("app", "The .app inside the archive.", file: true), OutputSpec("log", "The raw xcodebuild log.", file: true),
        ],
        examples: [
            StepExample("Archive for the App Store", """
                - xcode.archive: { project: App.xcodeproj, scheme: App, destinations: ["generic/platform=iOS"] }
                  id: archive
                """),
        ],
        platforms: [.macOS]
    )

    let scheme: XcodeSchemeOptions
    let archivePath: String?
    let allowProvisioningUpdates: Bool

    public init(options: StepOptions) throws {
        scheme = try XcodeSchemeOptions(options: options)
        archivePath = try options.string("archive-path")
        allowProvisioningUpdates = try options.bool("allow-provisioning-updates")
        if let archivePath, !archivePath.hasSuffix(".xcarchive") {
            throw StepError.invalidOption(name: "archive-path", problem: "is '\(archivePath)'; it must end in .xcarchive.")
        }
    }

    public func checkProject(in projectDirectory: String, fileSystem: any FileSystem) throws {
        try scheme.checkProject(in: projectDirectory, fileSystem: fileSystem)
    }

    public func projectNotes(in projectDirectory: String, fileSystem: any FileSystem) -> [String] {
        scheme.projectNotes(in: projectDirectory, fileSystem: fileSystem)
    }

    func invocation(in context: StepContext) -> XcodebuildInvocation {
        var invocation = scheme.invocation(.archive, in: context)
        invocation.archivePath = context.resolve(archivePath ?? "build/\(scheme.scheme).xcarchive")
        invocation.allowProvisioningUpdates = allowProvisioningUpdates
        return invocation
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        scheme.run.plan(try invocation(in: context).arguments(), name: "archive", in: context)
    }

    /// The project or workspace (options resolved) exists and has the scheme.
    public func check(in context: StepContext) async throws {
        try scheme.checkProject(in: context.workingDirectory, fileSystem: context.fileSystem, validating: false)
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let invocation = invocation(in: context)
        let path = invocation.archivePath ?? ""
        try context.fileSystem.remove(path)
        let runner = XcodebuildRunner(options: scheme.run, context: context)
        let outcome = try await runner.run(try invocation.arguments(), name: "archive")
        guard outcome.status.isSuccess, !outcome.summary.failed else { throw XcodebuildRunner.buildFailure(outcome, action: "archive") }
        let archive: XcodeArchive
        do {
            archive = try XcodeArchive.read(path: path, fileSystem: context.fileSystem)
        } catch {
            throw StepError.failed("xcodebuild archive succeeded, but \(errorText(error)) The raw log is \(outcome.log).")
        }
        context.events.log(.info, "archived \(archive.bundleIdentifier) \(archive.version) (\(archive.buildNumber))")
        return [
            "archive": runner.display(path), "bundle-id": archive.bundleIdentifier, "version": archive.version,
            "build-number": archive.buildNumber, "app": runner.display(archive.applicationFullPath), "log": outcome.log,
        ]
    }
}
