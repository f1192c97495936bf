import Basics
import Foundation
import Xcode

/// `xcode.select`: picks an Xcode by version (what fastlane's `xcodes` / `ensure_xcode_version`
/// do) and hands its `DEVELOPER_DIR` to later steps.
public struct XcodeSelectStep: Step {
    public static let description = StepDescription(
        id: "xcode.select",
        summary: "Choose an Xcode by version and output its DEVELOPER_DIR (macOS only)",
        discussion: """
            Looks at /Applications/Xcode*.app (each one's version.plist) and picks the highest \
            version that matches the constraint; DEVELOPER_DIR, when already set, wins. Fails, \
            listing the Xcodes found, when none matches. Later steps use it through \
            'env: { DEVELOPER_DIR: ${{ steps.xcode.outputs.developer-dir }} }', or give each \
            xcode.* step the same constraint with 'xcode:'.
            """,
        options: [
            .optional("version", .string, "A constraint: '16.2' (any 16.2.x), '16', '^16', '~16.2', '>=16.1, <17'; default: the highest."),
        ],
        outputs: [
            OutputSpec("developer-dir", "The chosen Xcode's Contents/Developer folder."),
            OutputSpec("version", "Its version, e.g. 16.2."), OutputSpec("build", "Its build, e.g. 16C5032a."),
        ],
        examples: [
            StepExample("Xcode 16.2", """
                - xcode.select: { version: "16.2" }
                  id: xcode
                """),
        ],
        platforms: [.macOS]
    )

    let version: String?

    public init(options: StepOptions) throws {
        version = try options.string("version")
        if let version {
            do { _ = try XcodeVersionConstraint(version) } catch {
                throw StepError.invalidOption(name: "version", problem: errorText(error))
            }
        }
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        [Effect(.check, "choose the Xcode matching \(version ?? "any version") in /Applications")]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let selection = try context.selectXcode(version)
        context.events.log(.info, "Xcode \(selection.xcode.map { "\($0.version)" } ?? "?") at \(selection.developerDirectory)")
        return ["developer-dir": selection.developerDirectory, "version": selection.xcode.map { "\($0.version)" } ?? "",
                "build": selection.xcode?.build ?? ""]
    }
}
