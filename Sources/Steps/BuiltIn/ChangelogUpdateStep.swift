import Basics
import Foundation
import Release

/// `changelog.update`: a Keep a Changelog section for the new version from the commits.
public struct ChangelogUpdateStep: Step {
    public static let description = StepDescription(
        id: "changelog.update",
        summary: "Add a Keep a Changelog section for a version, built from the commits since the last tag",
        discussion: """
            Reads the commits since the latest release tag in a style: 'conventional' groups \
            Conventional Commits (breaking changes under Breaking, feat under Added, fix under \
            Fixed, perf/refactor/revert under Changed, with their scopes); 'subjects' lists every \
            commit's subject, as fastlane's changelog_from_git_commits (merge-commits: exclude, \
            include or only); 'pull-requests' lists pull-request titles from squash commits \
            ('Title (#12)') and merge commits ('Merge pull request #12 from …'). 'auto', the \
            default, detects the style from the commits and says which it used and why, in the \
            log and the output 'style'. Items link to the commits (or pull requests) when origin \
            is on a known host. The section is rendered through a Mustache template and inserted \
            below '## [Unreleased]'; notes written by hand under Unreleased move into it. Style \
            'unreleased' reads no commits: what is written by hand under Unreleased becomes the \
            version's section (Keep a Changelog's own way, for a changelog kept by hand). A section \
            that already exists for the version is left as it is (re-running is safe). With \
            'create: true', a missing changelog is started in Keep a Changelog format.
            """,
        options: [
            .required("version", .string, "The version being released (usually ${{ steps.ID.outputs.version }})."),
            .optional("path", .string, default: .string("CHANGELOG.md"), "The changelog file."),
            .optional("style", .choice(ChangelogStyle.allCases.map(\.rawValue)), default: .string("auto"),
                      "How commits are read: auto (detected, and said), subjects, pull-requests or conventional; "
                        + "or unreleased: no commits, the notes written under '## [Unreleased]' become the section."),
            .optional("merge-commits", .choice(MergeCommits.allCases.map(\.rawValue)),
                      "With style subjects: exclude (default: no commit with more than one parent, no 'Merge branch …' subject), include, or only."),
            .optional("create", .bool, default: .bool(false), "Create the changelog (Keep a Changelog format) when it does not exist."),
            .optional("template", .string, "A Mustache template for the section (default: Slipway's built-in one)."),
            .optional("since", .string, "The tag to list commits from (default: the latest semver tag)."),
            .optional("tag-prefix", .string, "The prefix of release tags. Unset: the lane's tag-prefix, else the latest release is the highest of the v1.2.3 and 1.2.3 tags, and new tags follow its scheme (with a warning when the two disagree); set, only its tags count (\"\" counts both)."),
        ],
        outputs: [
            OutputSpec("entry", "The section as Markdown."),
            OutputSpec("text", "The section's items as plain text (no heading, hashes or links), e.g. for TestFlight's What to Test."),
            OutputSpec("style", "The style used: subjects, pull-requests or conventional (what auto detected)."),
            OutputSpec("path", "The changelog file."),
        ],
        examples: [
            StepExample("After version.bump", """
                - version.bump: { version-file: VERSION }
                  id: version
                - changelog.update: { version: "${{ steps.version.outputs.version }}" }
                """),
            StepExample("Pull-request titles, into a new CHANGELOG.md", """
                - changelog.update: { version: 1.4.0, style: pull-requests, create: true }
                """),
            StepExample("With a template", "- changelog.update: { version: 1.4.0, template: templates/changelog-entry.mustache }"),
        ]
    )

    let version: String
    let path: String
    let style: ChangelogStyle
    /// nil when not set (the default, exclude).
    let merges: MergeCommits?
    let create: Bool
    let template: String?
    let since: String?
    /// nil for the default (see `ReleasePlanner.init(directory:tagPrefix:)`).
    let tagPrefix: String?

    public init(options: StepOptions) throws {
        version = try options.requiredString("version")
        path = try options.requiredString("path")
        style = try ChangelogStyle(parsing: try options.string("style") ?? "auto", option: "option 'style'")
        merges = try options.string("merge-commits").map { try MergeCommits(parsing: $0, option: "option 'merge-commits'") }
        if merges != nil, style != .auto, style != .subjects {
            throw StepError.invalidOption(name: "merge-commits", problem: "applies to style subjects only, but style is \(style.rawValue); "
                + "remove merge-commits or set style: subjects")
        }
        create = try options.bool("create")
        template = try options.string("template")
        if style == .unreleased, template != nil {
            throw StepError.invalidOption(name: "template", problem: "renders the commits into a section, but style unreleased "
                + "releases the notes written under '## [Unreleased]' as they are; remove template, or choose a style that lists the commits")
        }
        since = try options.string("since")
        tagPrefix = try options.string("tag-prefix")
    }

    /// What the step writes: the section (Markdown and plain text), the style, the file's new text.
    struct Rendered {
        var entry: String
        var text: String
        var styled: ReleasePlanner.StyledEntry
        var updated: String
        /// The section already exists.
        var unchanged: Bool
        /// The file does not exist yet (and `create` is set).
        var creates: Bool

        /// "changelog style: subjects (detected: …)", then the notes.
        var messages: [String] {
            ["changelog style: \(styled.choice)"] + styled.notes
        }
    }

    func render(_ context: StepContext) throws -> Rendered {
        guard let semver = SemanticVersion(tag: version) else {
            throw StepError.invalidOption(name: "version", problem: "'\(version)' is not a semantic version")
        }
        return try render(context, semver: semver)
    }

    func render(_ context: StepContext, semver: SemanticVersion) throws -> Rendered {
        let file = context.resolve(path)
        // Checked before anything is rendered, in the plan too: a changelog in a folder that
        // links outside, or itself a link, is refused up front.
        _ = try context.checkedOutput(path)
        let creates = context.fileSystem.kind(of: file) == nil
        if creates && !create { throw ReleaseError.changelogMissing(file: path) }
        let planner = try ReleasePlanner(directory: context.workingDirectory, tagPrefix: tagPrefix)
        let state = try planner.state(since: since)
        let renderer = try template.map { try ChangelogRenderer(template: context.fileSystem.readText(context.resolve($0), as: .template), name: $0) }
            ?? ChangelogRenderer()
        let styled = planner.entry(for: semver, state: state, style: style, source: "the step's option 'style'", merges: merges)
        let changelog = ChangelogFile(text: creates ? ChangelogRenderer.keepAChangelogSkeleton : try context.fileSystem.readText(file, as: .changelog), path: path)
        if style == .unreleased {
            // The section is the notes as written; its Markdown and plain text are read back
            // from the file as it will be.
            let heading = ChangelogRenderer.heading(styled.entry)
            let updated = try changelog.releasingUnreleased(heading: heading, version: semver.description)
            let released = ChangelogFile(text: updated, path: path)
            let body = released.entry(version: semver.description) ?? ""
            return Rendered(entry: heading + "\n\n" + body + "\n",
                            text: (released.plainEntry(version: semver.description) ?? "") + "\n", styled: styled,
                            updated: updated, unchanged: changelog.contains(version: semver.description), creates: creates)
        }
        let entry = renderer.render(styled.entry)
        return Rendered(entry: entry, text: ChangelogRenderer.plainText(styled.entry), styled: styled,
                        updated: try changelog.inserting(entry, version: semver.description),
                        unchanged: changelog.contains(version: semver.description), creates: creates)
    }

    /// A version that comes from an earlier step's output in a dry run, where that step only
    /// planned: the runner puts `<steps.ID.outputs.NAME>` in its place.
    var isPlannedOutput: Bool { SemanticVersion(tag: version) == nil && DryRunPlaceholder.contains(version) }

    public func plan(in context: StepContext) throws -> [Effect] {
        if context.isDryRun && isPlannedOutput {
            // Render the section with a stand-in version, so that the plan still shows the
            // commits and checks the changelog and template; then name the version as planned.
            let standIn = try SemanticVersion(major: 0, minor: 0, patch: 0, prerelease: ["planned", "by", "slipway"])
            let result = try render(context, semver: standIn)
            let entry = result.entry.replacingOccurrences(of: standIn.description, with: version)
            return result.messages.map { Effect(.other, $0) } + [writeEffect(entry, creates: result.creates)]
        }
        let result = try render(context)
        if result.unchanged { return [Effect(.check, "\(path) already has a section for \(version)")] }
        return result.messages.map { Effect(.other, $0) } + [writeEffect(result.entry, creates: result.creates)]
    }

    private func writeEffect(_ entry: String, creates: Bool) -> Effect {
        Effect(.write, (creates ? "create \(path) (Keep a Changelog) with:\n" : "insert into \(path):\n") + entry.trimmingCharacters(in: .newlines))
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let result = try render(context)
        if result.unchanged {
            context.events.log(.info, "\(path) already has a section for \(version); left as it is")
        } else {
            for message in result.messages { context.events.log(.info, message) }
            try context.fileSystem.writeAtomically(result.updated, to: context.resolve(path))
            if result.creates { context.events.log(.info, "created \(path) (Keep a Changelog format)") }
        }
        return ["entry": result.entry, "text": result.text, "style": result.styled.choice.style.rawValue, "path": path]
    }
}
