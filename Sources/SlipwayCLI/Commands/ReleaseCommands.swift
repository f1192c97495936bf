import ArgumentParser
import Basics
import Foundation
import Release

/// `slipway version`: the current release version, and the next one.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print the project's current release version (the latest semver tag), or the next one.",
        discussion: """
            The next version comes from the conventional commits since the latest tag: a breaking \
            change bumps major, feat minor, fix/perf patch (before 1.0.0: breaking and feat bump \
            minor). When no commit is a Conventional Commit, auto bumps patch and says so on \
            standard error. Nothing is written; the version.bump step writes it. When no commit since the \
            latest tag calls for a release, --next exits 4 (nothing to release), not 1 or 2.

            Examples:
              slipway version
              slipway version --next
              slipway version --next --strategy 'prerelease rc'
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the next version instead of the current one.")
    var next = false

    @Option(help: "auto, major, minor, patch, 'prerelease ID' or a version.")
    var strategy = "auto"

    @Option(help: "The prefix of release tags (default: the scheme of the latest of the v1.2.3 and 1.2.3 tags; '' counts both).")
    var tagPrefix: String?

    func run() throws {
        let env = global.environment()
        do {
            let planner = try ReleasePlanner(directory: env.projectDirectory, tagPrefix: tagPrefix)
            let state = try planner.state()
            defer { ProcessLifetime.keepUntilExit(state) }
            env.printTagWarnings(state)
            if next {
                let remedy = "run 'slipway version --next --strategy patch' (or minor, major)"
                let explained = try planner.nextVersionExplained(try VersionStrategy(parsing: strategy), state: state, remedy: remedy,
                                                                 choose: "run 'slipway version --next --strategy minor' (or major, or a version such as 1.4.0)")
                if let note = explained.note { env.standardError.write(env.style.paint("note: ", .yellow) + note.displaySafe + "\n") }
                env.print(explained.version.description)
            } else {
                guard let previous = state.previous else {
                    _ = try planner.nextVersion(.auto, state: state)
                    throw ReleaseError.noPreviousVersion
                }
                env.print(previous.description)
            }
        } catch {
            throw Failure.report(error, in: env)
        }
    }
}

/// `slipway changelog`: previews the changelog section for the next release.
struct ChangelogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changelog",
        abstract: "Preview the changelog section the next release would add (writes nothing).",
        discussion: """
            Examples:
              slipway changelog
              slipway changelog --since v1.2.0 --release-version 1.3.0
              slipway changelog --template templates/changelog-entry.mustache
              slipway changelog --style subjects --merge-commits include --format text

            --style auto (the default) detects how the commits are written: conventional when most \
            are Conventional Commits, pull-requests when most first-parent commits are squashed \
            ('Title (#12)') or merged pull requests, else subjects (every commit's subject). The \
            style used and why is printed on standard error (and in --json).

            --version prints Slipway's version, as on every command; the release's version is \
            --release-version. Exits 4 when there is nothing to release (no feat, fix, perf or \
            breaking commit since the tag) and no --release-version is given; when no commit \
            since the tag is a Conventional Commit, the version is the next patch and a note on \
            standard error says so.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "List commits since this tag (default: the latest semver tag).")
    var since: String?

    @Option(name: .customLong("release-version"),
            help: ArgumentHelp("The release's version to show (default: the next version from the commits).", valueName: "version"))
    var releaseVersion: String?

    /// `--version`, which ArgumentParser's own version flag would answer for every other command.
    /// Parsed here (hidden) because earlier releases took `--version VERSION`: with a value it
    /// is refused with the new spelling instead of silently printing Slipway's version.
    @Flag(name: .customLong("version"), help: .hidden)
    var showVersion = false

    /// Stray words; only there so that the value of an old `--version VERSION` gets a useful error.
    @Argument(help: .hidden)
    var stray: [String] = []

    @Option(help: "A Mustache template for the section.")
    var template: String?

    @Option(help: "How commits are read: auto, subjects, pull-requests or conventional.")
    var style = "auto"

    @Option(help: "With --style subjects: exclude (the default: no merges), include or only.")
    var mergeCommits: String?

    @Option(help: "markdown (the CHANGELOG section) or text (plain items, e.g. for TestFlight's What to Test).")
    var format = "markdown"

    @Flag(help: "Print the version, style, reason, notes, Markdown and plain text as JSON.")
    var json = false

    @Option(help: "The prefix of release tags (default: the scheme of the latest of the v1.2.3 and 1.2.3 tags; '' counts both).")
    var tagPrefix: String?

    func validate() throws {
        guard let word = stray.first else { return }
        if showVersion {
            throw ValidationError("--version prints Slipway's version and takes no value; "
                                  + "to preview the changelog of release \(word), use --release-version \(word).")
        }
        throw ValidationError("Unexpected argument '\(word)'; changelog takes options only (see 'slipway changelog --help').")
    }

    func run() throws {
        let env = global.environment()
        if showVersion {
            env.print(SlipwayVersion.current)
            return
        }
        do {
            let planner = try ReleasePlanner(directory: env.projectDirectory, tagPrefix: tagPrefix)
            let state = try planner.state(since: since)
            env.printTagWarnings(state)
            let example = (try? state.previous?.bumped(.patch))?.description ?? "1.0.0"
            let remedy = "give the version: 'slipway changelog --release-version \(example)'"
            let choices = try parsedChoices()
            let version = try releaseVersion.map { try VersionStrategy(parsing: $0) }.map { strategy -> ReleasePlanner.NextVersion in
                guard case .exact(let value) = strategy else { throw ValidationError("--release-version takes a version such as 1.3.0, not '\(releaseVersion ?? "")'") }
                return ReleasePlanner.NextVersion(version: value, note: nil)
            } ?? planner.nextVersionExplained(.auto, state: state, remedy: remedy,
                                              choose: "give the version: 'slipway changelog --release-version \(example)'")
            let path = template.map { $0.hasPrefix("/") ? $0 : env.projectDirectory + "/" + $0 }
            let renderer = try path.map { try ChangelogRenderer(template: env.fileSystem.readText($0), name: $0) } ?? ChangelogRenderer()
            let styled = planner.entry(for: version.version, state: state, style: choices.style, source: "--style", merges: choices.merges)
            let output = ChangelogOutput(version: version, styled: styled, markdown: renderer.render(styled.entry))
            try output.write(to: env, json: json, format: choices.format)
            ProcessLifetime.keepUntilExit((state, styled, output))
        } catch {
            throw Failure.report(error, in: env)
        }
    }
}

extension CommandEnvironment {
    /// Prints what the release planner says about the tags (e.g. two tag schemes) on standard
    /// error, so that standard output keeps only the answer.
    func printTagWarnings(_ state: ReleasePlanner.State) {
        for warning in state.warnings {
            standardError.write(style.paint("warning: ", .yellow) + warning.displaySafe + "\n")
        }
    }
}
