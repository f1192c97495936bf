import Basics
import Foundation
import Release

/// `changelog.update`: a Keep a Changelog section for the new version from the commits.
public struct ChangelogUpdateStep: Step {
    public static let description = StepDescription(
        id: "changelog.update",
        summary: "Add a Keep a Changelog section for a version, built from the commits since the last tag",
        discussion: """
            Groups conventional commits since the latest release tag: breaking changes under \
            Breaking, feat under Added, fix under Fixed, perf/refactor/revert under Changed, with \
            their scopes and links to the commits when origin is on a known host. The section is \
            rendered through a Mustache template and inserted below '## [Unreleased]'; notes \
            written by hand under Unreleased move into it. A section that already exists for the \
            version is left as it is (re-running is safe).
            """,
        options: [
            .required("version", .string, "The version being released (usually ${{ steps.ID.outputs.version }})."),
            .optional("path", .string, default: .string("CHANGELOG.md"), "The changelog file."),
            .optional("template", .string, "A Mustache template for the section (default: Slipway's built-in one)."),
            .optional("since", .string, "The tag to list commits from (default: the latest semver tag)."),
            .optional("tag-prefix", .string, "The prefix of release tags. Unset: the latest release is the highest of the v1.2.3 and 1.2.3 tags, and new tags follow its scheme (with a warning when the two disagree); set, only its tags count (\"\" counts both)."),
        ],
        outputs: [
            OutputSpec("entry", "The section as Markdown."),
            OutputSpec("path", "The changelog file."),
        ],
        examples: [
            StepExample("After version.bump", """
                - version.bump: { version-file: VERSION }
                  id: version
                - changelog.update: { version: "${{ steps.version.outputs.version }}" }
                """),
            StepExample("With a template", "- changelog.update: { version: 1.4.0, template: templates/changelog-entry.mustache }"),
        ]
    )

    let version: String
    let path: String
    let template: String?
    let since: String?
    /// nil for the default (see `ReleasePlanner.init(directory:tagPrefix:)`).
    let tagPrefix: String?

    public init(options: StepOptions) throws {
        version = try options.requiredString("version")
        path = try options.requiredString("path")
        template = try options.string("template")
        since = try options.string("since")
        tagPrefix = try options.string("tag-prefix")
    }

    func render(_ context: StepContext) throws -> (entry: String, updated: String, unchanged: Bool) {
        guard let semver = SemanticVersion(tag: version) else {
            throw StepError.invalidOption(name: "version", problem: "'\(version)' is not a semantic version")
        }
        return try render(context, semver: semver)
    }

    func render(_ context: StepContext, semver: SemanticVersion) throws -> (entry: String, updated: String, unchanged: Bool) {
        let planner = try ReleasePlanner(directory: context.workingDirectory, tagPrefix: tagPrefix)
        let state = try planner.state(since: since)
        let renderer = try template.map { try ChangelogRenderer(template: context.fileSystem.readText(context.resolve($0)), name: $0) }
            ?? ChangelogRenderer()
        let entry = renderer.render(planner.entry(for: semver, state: state))
        let file = ChangelogFile(text: try context.fileSystem.readText(context.resolve(path)), path: path)
        return (entry, try file.inserting(entry, version: semver.description), file.contains(version: semver.description))
    }

    /// A version that comes from an earlier step's output in a dry run, where that step only
    /// planned: the runner puts `<steps.ID.outputs.NAME>` in its place.
    var isPlannedOutput: Bool { SemanticVersion(tag: version) == nil && version.contains("<steps.") }

    public func plan(in context: StepContext) throws -> [Effect] {
        if context.isDryRun && isPlannedOutput {
            // Render the section with a stand-in version, so that the plan still shows the
            // commits and checks the changelog and template; then name the version as planned.
            let standIn = try SemanticVersion(major: 0, minor: 0, patch: 0, prerelease: ["planned", "by", "slipway"])
            let entry = try render(context, semver: standIn).entry.replacingOccurrences(of: standIn.description, with: version)
            return [Effect(.write, "insert into \(path):\n" + entry.trimmingCharacters(in: .newlines))]
        }
        let result = try render(context)
        if result.unchanged { return [Effect(.check, "\(path) already has a section for \(version)")] }
        return [Effect(.write, "insert into \(path):\n" + result.entry.trimmingCharacters(in: .newlines))]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let result = try render(context)
        if result.unchanged {
            context.events.log(.info, "\(path) already has a section for \(version); left as it is")
        } else {
            try context.fileSystem.writeAtomically(result.updated, to: context.resolve(path))
        }
        return ["entry": result.entry, "path": path]
    }
}
