import Foundation
import Xcode

/// `slipway init --template ios` for the project it runs in: the starter iOS release lane with
/// the surveyed workspace or project, scheme and version location filled in.
public enum IOSStarterLane {
    /// The lane, and what was found, in lines for the terminal.
    public static func make(_ survey: XcodeProjectSurvey) -> (lane: LaneDraft, findings: [String]) {
        var lane = LaneDraft(name: "ios-release", description: "Version, build number, test, archive, export, changelog, tag and publish an iOS app")
        lane.header = [
            "Release an iOS app: a new version and build number in the Xcode project, tests on a simulator",
            "(flaky tests retried once), an archive, a signed .ipa, a CHANGELOG.md section, a release commit",
            "and tag, and the .ipa copied into a local folder. The xcode.* steps need macOS with Xcode; check",
            "it from Linux with 'slipway validate ios-release --platform macos'. It needs a CHANGELOG.md with",
            "a '## [Unreleased]' heading. 'slipway init --template ios' writes it with the workspace or",
            "project, scheme and version files it finds in the folder (templates/ios/ios-release.yml is what",
            "it writes where it finds none). Try it first with:",
            "  slipway run ios-release --input team-id=ABCDE12345 --input build-number=42 --dry-run --platform macos",
        ]
        var findings: [String] = []
        let containerKey: String
        if let container = survey.container {
            containerKey = container.kind == .workspace ? "workspace" : "project"
            lane.requireInput(containerKey, "The .\(container.kind == .workspace ? "xcworkspace" : "xcodeproj")", default: container.path)
            findings.append("found    \(container.path)" + (survey.project.map { $0 == container.path ? "" : " (project \($0))" } ?? ""))
            if !survey.otherContainers.isEmpty { findings.append("         also there, not used: \(survey.otherContainers.joined(separator: ", "))") }
        } else {
            containerKey = "project"
            lane.requireInput("project", "The .xcodeproj", default: "App.xcodeproj")
        }
        let scheme = survey.appScheme?.name
        lane.requireInput("scheme", "The scheme to test and archive", default: scheme)
        if !survey.schemes.isEmpty {
            findings.append("schemes  \(survey.schemes.map(\.name).joined(separator: ", "))" + (scheme.map { "; the app's: \($0)" } ?? ""))
        }
        // A Mac-and-iOS app: say why the iOS scheme was taken over the other app's.
        let notIOS = survey.shippingTargets.filter { $0.isApplication && $0.sdks.map { !$0.contains("iphoneos") } ?? false }
        if let scheme, !notIOS.isEmpty {
            findings.append("         \(scheme) builds the iOS app; not for iOS: "
                            + notIOS.map { "\($0.name) (\($0.sdks?.sorted().joined(separator: " ") ?? ""))" }.joined(separator: ", "))
        }
        let test = survey.testScheme?.name
        if let test, test != scheme { lane.requireInput("test-scheme", "The scheme whose tests run", default: test) }
        for target in survey.shippingTargets {
            let kind = target.isApplication ? "app" : "ships"
            findings.append("\(kind.padding(toLength: 8, withPad: " ", startingAt: 0)) \(target.name): \(target.bundleID ?? "no bundle id")"
                            + (target.versionSource.map { "; version in \($0)" } ?? ""))
        }
        lane.requireInput("team-id", "The Apple team id that signs the export")
        lane.requireInput("build-number", "The build number (CI's run number, for instance)")
        lane.requireInput("strategy", "auto (from the commits), major, minor, patch, or a version", default: "auto")
        lane.requireInput("simulator", "The simulator the tests run on", default: "platform=iOS Simulator,name=iPhone 16")
        lane.requireInput("method", "The export method", default: "app-store-connect",
                          choices: ["app-store-connect", "release-testing", "enterprise", "debugging"])
        lane.requireInput("upload-directory", "The folder the .ipa is copied into", default: ".slipway/published")
        let container = DraftPair(containerKey, .string("${{ inputs.\(containerKey) }}"))
        lane.steps.append(DraftStep(kind: "appstore.preflight", id: nil,
                                    options: containerKey == "project" ? [DraftPair("xcodeproj", .string("${{ inputs.project }}"))] : [], origin: nil))
        lane.steps.append(DraftStep(kind: "git.ensure-clean", id: nil, options: [], origin: nil))
        lane.steps.append(DraftStep(kind: "xcode.test", id: nil, options: [
            container, DraftPair("scheme", .string("${{ inputs.\(test != nil && test != scheme ? "test-scheme" : "scheme") }}")),
            DraftPair("destinations", .list([.string("${{ inputs.simulator }}")])), DraftPair("retries", .int(1)),
        ], origin: nil))
        var bump = [DraftPair("strategy", .string("${{ inputs.strategy }}")), DraftPair("build-number", .string("${{ inputs.build-number }}"))]
        let project = survey.project ?? (containerKey == "project" ? "${{ inputs.project }}" : nil)
        if let project { bump.insert(DraftPair("xcodeproj", .string(project)), at: 1) }
        lane.steps.append(DraftStep(kind: "version.bump", id: "version", options: bump, origin: nil))
        lane.steps.append(DraftStep(kind: "xcode.archive", id: "archive", options: [
            container, DraftPair("scheme", .string("${{ inputs.scheme }}")),
            DraftPair("destinations", .list([.string("generic/platform=iOS")])),
        ], origin: nil))
        lane.steps.append(DraftStep(kind: "xcode.export", id: "export", options: [
            DraftPair("archive", .string("${{ steps.archive.outputs.archive }}")),
            DraftPair("method", .string("${{ inputs.method }}")),
            DraftPair("team-id", .string("${{ inputs.team-id }}")),
        ], origin: nil))
        lane.steps.append(DraftStep(kind: "changelog.update", id: nil, options: [
            DraftPair("version", .string("${{ steps.version.outputs.version }}")),
        ], origin: nil))
        var paths = Set(survey.shippingTargets.compactMap(\.versionSource)).sorted()
        if paths.isEmpty, let project { paths = [project + "/project.pbxproj"] }
        lane.steps.append(DraftStep(kind: "git.commit", id: nil, options: [
            DraftPair("message", .string("chore(release): ${{ steps.version.outputs.version }} (${{ inputs.build-number }})")),
            DraftPair("paths", .list((paths + ["CHANGELOG.md"]).map(DraftValue.string))),
        ], origin: nil))
        lane.steps.append(DraftStep(kind: "git.tag", id: nil, options: [DraftPair("name", .string("${{ steps.version.outputs.tag }}"))], origin: nil))
        lane.steps.append(DraftStep(kind: "upload", id: nil, options: [
            DraftPair("to", .string("directory")), DraftPair("directory", .string("${{ inputs.upload-directory }}")),
            DraftPair("files", .list([.string("${{ steps.export.outputs.path }}")])),
        ], origin: nil))
        findings += survey.notes.map { "note     " + $0 }
        return (lane, findings)
    }
}
