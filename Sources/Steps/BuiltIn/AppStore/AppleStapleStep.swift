import Basics
import Foundation

/// `apple.staple`: attaches the notarization ticket to an app, disk image or installer package
/// with `xcrun stapler staple` (macOS only: stapler ships with Xcode).
public struct AppleStapleStep: Step {
    public static let description = StepDescription(
        id: "apple.staple",
        summary: "Staple the notarization ticket to a .app, .dmg or .pkg with xcrun stapler (macOS only)",
        discussion: """
            Runs 'xcrun stapler staple PATH' after apple.notarize accepted the file, so that \
            Gatekeeper can check it offline. A .zip cannot be stapled: staple the .app that was \
            zipped (then zip it again for distribution), or the .dmg/.pkg itself. Refused at \
            validation on Linux, where there is no stapler.
            """,
        options: [
            .required("file", .string, "The .app, .dmg or .pkg that was notarized."),
        ],
        outputs: [OutputSpec("path", "The stapled file (absolute).", file: true)],
        examples: [
            StepExample("Staple the notarized app", """
                - apple.staple:
                    file: build/export/App.app
                """),
        ],
        platforms: [.macOS]
    )

    /// The extensions stapler takes.
    public static let allowedExtensions = ["app", "dmg", "pkg"]

    let file: String

    public init(options: StepOptions) throws {
        var file = try options.requiredString("file")
        while file.count > 1 && file.hasSuffix("/") { file.removeLast() }
        let ext = (file as NSString).pathExtension.lowercased()
        if !file.contains("${{") && !Self.allowedExtensions.contains(ext) {
            let hint = ext == "zip"
                ? "a .zip cannot be stapled: staple the .app before zipping it (and zip it again), or staple the .dmg or .pkg"
                : "stapler takes a .app, .dmg or .pkg"
            throw StepError.invalidOption(name: "file", problem: "'\(file)' is \(ext.isEmpty ? "not a .app, .dmg or .pkg" : "a .\(ext)"); \(hint)")
        }
        self.file = file
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        [Effect(.process, context.processSpec("xcrun", ["stapler", "staple", context.resolve(file)]).commandLine)]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let path = context.resolve(file)
        guard context.fileSystem.existsFollowingLinks(path) else {
            throw StepError.invalidOption(name: "file", problem: "'\(path)' does not exist. Give the .app, .dmg or .pkg apple.notarize accepted")
        }
        try await context.runChecked(context.processSpec("xcrun", ["stapler", "staple", path]))
        context.events.log(.info, "stapled the notarization ticket to \(path)")
        return ["path": path]
    }
}
