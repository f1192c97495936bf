import ArgumentParser
import Basics
import Foundation
import Release
import Steps

/// `slipway version`: the current release version, and the next one.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print the project's current version (an app's from its Xcode project, a package's from its tags), or the next one.",
        discussion: """
            For an app (an .xcodeproj in the folder, or one level down, or --xcodeproj), the current \
            version is the project's MARKETING_VERSION for the targets that ship (the applications \
            and the extensions they embed; test bundles are left out): standard error shows it with \
            the build number (CURRENT_PROJECT_VERSION), where it is written, the latest release \
            tag, and a warning when the two disagree (the project below the tag). When embedded \
            targets (extensions, a widget) hold another version than the application, the version \
            is the application's and a warning names each of them with file:line (App Store \
            Connect warns about it on upload, ITMS-90473). --next bumps the \
            project's version (auto: the project's version itself when it is above the latest \
            release tag). For a package (no project), the current version is the latest release \
            tag reachable from HEAD. Tags are read as apps write them: 1.2.3, 20.7 (two parts), \
            20.8.0.0 (four parts: a version and a build) and 7.1.3-7206 (a version and a build); \
            when the history has both plain tags and tags with a build, the latter are builds, not \
            releases. A higher release tag that is not in HEAD's history (git-flow's master) is \
            named in a warning.

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

    @Option(help: ArgumentHelp("The app's Xcode project (default: the one .xcodeproj in the folder or one level down).", valueName: "path"))
    var xcodeproj: String?

    @Flag(help: "Use the tags only, as for a package, even when there is an Xcode project.")
    var fromTags = false

    @Option(help: ArgumentHelp("Read the project as on this platform: macos resolves an #include by ignoring case, as macOS's disk does.", valueName: "platform"))
    var platform: String?

    @Flag(help: "Print the version, build, places, latest release tag and notes as JSON.")
    var json = false

    /// The `--json` object.
    struct Report: Encodable {
        var version: String
        var build: String?
        var source: String
        var project: String?
        var places: [String]
        var targets: [String]
        var latestReleaseTag: String?
        var latestRelease: String?
        var notes: [String]
        var warnings: [String]
    }

    func validate() throws {
        if let platform, !["macos", "linux"].contains(platform) {
            throw ValidationError("--platform is '\(platform)'; use macos or linux")
        }
        if fromTags, xcodeproj != nil { throw ValidationError("--from-tags and --xcodeproj do not go together; give one") }
    }

    func run() throws {
        let env = global.environment()
        do {
            let planner = try ReleasePlanner(directory: env.projectDirectory, tagPrefix: tagPrefix)
            let state = try planner.state()
            defer { ProcessLifetime.keepUntilExit(state) }
            let projectPath = fromTags ? nil : try xcodeproj.map { $0.hasPrefix("/") ? $0 : env.projectDirectory + "/" + $0 }
                ?? ProjectVersion.find(in: env.projectDirectory, fileSystem: env.fileSystem)
            if let projectPath {
                try runForApp(project: projectPath, planner: planner, state: state, env: env)
                return
            }
            if json, !next, state.previous != nil {
                let report = Report(version: state.previousWritten ?? "", build: nil, source: "tags", project: nil, places: [], targets: [],
                                    latestReleaseTag: state.previousTag, latestRelease: state.previousWritten, notes: state.notes,
                                    warnings: state.warnings)
                env.print(try JSONFormatting.line(report))
                return
            }
            if !json { env.printTagWarnings(state) }
            if next {
                let remedy = "run 'slipway version --next --strategy patch' (or minor, major)"
                let explained = try planner.nextVersionExplained(try VersionStrategy(parsing: strategy), state: state, remedy: remedy,
                                                                 choose: "run 'slipway version --next --strategy minor' (or major, or a version such as 1.4.0)")
                if json {
                    let report = Report(version: state.written(explained.version), build: nil, source: "tags", project: nil, places: [],
                                        targets: [], latestReleaseTag: state.previousTag, latestRelease: state.previousWritten,
                                        notes: state.notes + [explained.note].compactMap { $0 }, warnings: state.warnings)
                    env.print(try JSONFormatting.line(report))
                    return
                }
                if let note = explained.note { env.standardError.write(env.style.paint("note: ", .yellow) + note.displaySafe + "\n") }
                env.print(state.written(explained.version))
            } else {
                guard let previous = state.previous else {
                    _ = try planner.nextVersion(.auto, state: state)
                    throw ReleaseError.noPreviousVersion
                }
                env.print(state.written(previous))
            }
        } catch {
            throw Failure.report(error, in: env)
        }
    }
}

extension VersionCommand {
    /// An app: the project's version is the current one; the tags give the last release.
    func runForApp(project path: String, planner: ReleasePlanner, state: ReleasePlanner.State, env: CommandEnvironment) throws {
        let includesIgnoreCase = (platform ?? (Platform.current == .macOS ? "macos" : "linux")) == "macos"
        let read = try ProjectVersion.read(project: path, fileSystem: env.fileSystem, root: env.projectDirectory,
                                           includesIgnoreCase: includesIgnoreCase)
        var notes = state.notes + read.notes
        var warnings = state.warnings + read.warnings
        let places = read.places.joined(separator: ", ")
        notes.append("the project '\(read.project)' holds version \(read.version)\(read.build.map { ", build \($0)" } ?? "") "
                     + "(\(places)); the latest release tag is \(state.previousTag.map { "'\($0)'" } ?? "none")")
        if let previous = state.previous, let current = ReleaseTagVersion(read.version.split(separator: ".").count == 1 ? read.version + ".0" : read.version) {
            if current.version < previous {
                warnings.append("the project's version \(read.version) is below the latest release tag '\(state.previousTag ?? "")' "
                                + "(\(state.written(previous))); raise it before the next release (strategy: a version above it)")
            } else if current.version == previous {
                notes.append("the project's version \(read.version) is the latest release's: the next release needs a bump")
            }
        }
        var version = read.version
        if next {
            let strategy = try VersionStrategy(parsing: self.strategy)
            let made = try planner.nextVersion(fromProject: read.version, places: read.places, strategy: strategy, state: state)
            notes += made.notes
            version = made.written
        }
        if json {
            let report = Report(version: version, build: read.build, source: "project", project: read.project, places: read.places,
                                targets: read.targets, latestReleaseTag: state.previousTag, latestRelease: state.previousWritten,
                                notes: notes, warnings: warnings)
            env.print(try JSONFormatting.line(report))
            return
        }
        for note in notes { env.standardError.write(env.style.paint("note: ", .yellow) + note.displaySafe + "\n") }
        for warning in warnings { env.standardError.write(env.style.paint("warning: ", .yellow) + warning.displaySafe + "\n") }
        env.print(version)
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
            var state = try planner.state(since: since)
            env.printTagWarnings(state)
            // A release version given in two parts (20.8) is written so.
            if let releaseVersion, ReleaseTagVersion(releaseVersion, allowingV: true)?.form == .twoPart { state.form = .twoPart }
            let example = (try? state.previous?.bumped(.patch))?.description ?? "1.0.0"
            let remedy = "give the version: 'slipway changelog --release-version \(example)'"
            let choices = try parsedChoices()
            let version = try releaseVersion.map { try VersionStrategy(parsing: $0) }.map { strategy -> ReleasePlanner.NextVersion in
                guard case .exact(let value) = strategy else { throw ValidationError("--release-version takes a version such as 1.3.0 or 20.8, not '\(releaseVersion ?? "")'") }
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
        for note in state.notes {
            standardError.write(style.paint("note: ", .yellow) + note.displaySafe + "\n")
        }
        for warning in state.warnings {
            standardError.write(style.paint("warning: ", .yellow) + warning.displaySafe + "\n")
        }
    }
}
