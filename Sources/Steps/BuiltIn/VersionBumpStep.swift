import AppleAPI
import Basics
import Foundation
import Release

/// `version.bump`: the next version from conventional commits (or given), written where the
/// project keeps it.
public struct VersionBumpStep: Step {
    public static let description = StepDescription(
        id: "version.bump",
        summary: "Work out the next version from commits since the last tag and write it into the project",
        discussion: """
            strategy auto reads the commits since the latest semver tag reachable from HEAD: a \
            breaking change (`feat!:` or a `BREAKING CHANGE:` footer) bumps major, `feat` minor, \
            `fix`/`perf` patch; when no commit is a Conventional Commit, it bumps patch and says so. Before 1.0.0 a breaking change or feature bumps minor and a fix \
            patch; a pre-release is released without its suffix. Other strategies: major, minor, \
            patch, 'prerelease ID' (1.2.3 → 1.2.4-rc.1 → 1.2.4-rc.2) or an explicit version. \
            Every file is checked before any is written, and a next version whose tag already \
            exists on another commit (a release made from another branch) is refused before \
            anything is written. With xcodeproj, each selected target configuration's \
            MARKETING_VERSION and CURRENT_PROJECT_VERSION are written where Xcode reads them: \
            the target's settings, its base .xcconfig (following #include and #include?), then \
            the project's settings and .xcconfig; a shared .xcconfig is written once. The plan \
            lists every file:line and key; an .xcconfig outside the lane's folder (links \
            followed), a missing #include, a cycle or a value that is an expression is an error \
            before anything is written.
            """,
        options: [
            .optional("strategy", .string, default: .string("auto"), "auto, major, minor, patch, 'prerelease ID', a version such as 1.4.0, or keep (the project's version stays; only build-number is written)."),
            .optional("tag-prefix", .string, "The prefix of release tags. Unset: the lane's tag-prefix, else the latest release is the highest of the v1.2.3 and 1.2.3 tags, and new tags follow its scheme (with a warning when the two disagree); set, only its tags count (\"\" counts both)."),
            .optional("version-file", .string, "A file that holds only the version (e.g. VERSION)."),
            .optional("files", .list(.map(.string)), "Files with the version inside: [{ path, pattern }], the pattern's first capture group is replaced."),
            .optional("info-plists", .list(.string), "Info.plist files: CFBundleShortVersionString (and CFBundleVersion with build-number); a value $(MARKETING_VERSION) writes that build setting where it is defined (needs xcodeproj)."),
            .optional("xcodeproj", .string, "An Xcode project: MARKETING_VERSION (and CURRENT_PROJECT_VERSION with build-number) written where each target configuration defines it: its build settings, its .xcconfig (through #include), or the project's."),
            .optional("targets", .list(.string), "With xcodeproj: only these targets (default: the applications and their extensions, each written where its Info.plist's CFBundleShortVersionString says, else MARKETING_VERSION; test bundles and frameworks are left out and named in the plan). Each must define the setting at some level (its settings, its .xcconfig, the project's)."),
            .optional("build-number", .string, "The build number for CFBundleVersion and CURRENT_PROJECT_VERSION; increment: the one the files hold plus 1 (as fastlane's increment_build_number). It must be above the one the files hold."),
            .optional("bundle-id", .string, "With an App Store Connect key (key-id, ...): the app whose latest build number on App Store Connect the build-number must be above; checked before anything is written."),
        ] + AppStoreConnection.specs(keyIDRequired: false),
        outputs: [
            OutputSpec("version", "The new version, e.g. 1.4.0."),
            OutputSpec("previous", "The version of the latest release tag (empty when there is none)."),
            OutputSpec("tag", "The new release tag, e.g. v1.4.0."),
            OutputSpec("previous-tag", "The latest release tag (empty when there is none)."),
            OutputSpec("files", "The files whose contents changed, relative to the lane's folder (a list; xcconfig files included).", type: .list(.string)),
        ],
        examples: [
            StepExample("From the commits, into a VERSION file", """
                - version.bump: { version-file: VERSION }
                  id: version
                """),
            StepExample("A Swift constant and an Info.plist", """
                - version.bump:
                    strategy: minor
                    files: [{ path: Sources/App/Version.swift, pattern: 'let version = "(.*)"' }]
                    info-plists: [App/Info.plist]
                """),
            StepExample("A release candidate", "- version.bump: { strategy: prerelease rc, version-file: VERSION }"),
            StepExample("An Xcode project's targets", """
                - version.bump: { xcodeproj: App.xcodeproj, targets: [App, Widget], build-number: "42" }
                """),
        ]
    )

    let strategy: VersionStrategy
    /// `strategy: keep`: the version stays what the project has; only the build number changes.
    let keepsVersion: Bool
    /// nil for the default (see `ReleasePlanner.init(directory:tagPrefix:)`).
    let tagPrefix: String?
    let targets: [VersionStamper.Target]
    let buildNumber: String?
    /// Planned for macOS (this machine or `--platform macos`): an `#include` is found by
    /// ignoring case, as on macOS's case-insensitive disk.
    let includesIgnoreCase: Bool
    /// With a key: App Store Connect, whose latest build number of `bundleID` the build number
    /// must be above.
    let connection: AppStoreConnection?
    let bundleID: String?

    public init(options: StepOptions) throws {
        let strategyText = try options.requiredString("strategy")
        keepsVersion = strategyText.trimmingCharacters(in: .whitespaces) == "keep"
        strategy = keepsVersion ? .auto : try VersionStrategy(parsing: strategyText)
        tagPrefix = try options.string("tag-prefix")
        var targets: [VersionStamper.Target] = []
        if let file = try options.string("version-file") { targets.append(.versionFile(path: file)) }
        if case .list(let entries)? = options.values["files"] {
            for entry in entries {
                guard case .map(let fields) = entry, case .string(let path)? = fields["path"], case .string(let pattern)? = fields["pattern"] else {
                    throw StepError.invalidOption(name: "files", problem: "entries need 'path' and 'pattern', e.g. { path: Sources/App/Version.swift, pattern: 'version = \"(.*)\"' }")
                }
                targets.append(.pattern(path: path, pattern: pattern))
            }
        }
        targets += try options.strings("info-plists").map { .infoPlist(path: $0) }
        if let project = try options.string("xcodeproj") {
            let names = try options.strings("targets")
            targets.append(.xcodeproj(path: project, targets: names.isEmpty ? nil : names))
        }
        self.targets = targets
        buildNumber = try options.string("build-number")
        includesIgnoreCase = options.platform == .macOS
        bundleID = try options.string("bundle-id")
        connection = try options.string("key-id") == nil ? nil : try AppStoreConnection(options: options)
        if connection != nil, bundleID == nil {
            throw StepError.invalidOption(name: "bundle-id", problem: "key-id is given, so the build number is checked against App Store Connect's latest, which needs the app's bundle id; add bundle-id: com.example.app (or remove the key options)")
        }
        if connection != nil, buildNumber == nil {
            throw StepError.invalidOption(name: "build-number", problem: "key-id is given to check the build number against App Store Connect's latest, but no build-number is written; add build-number, or remove the key options")
        }
    }

    /// Refuses a build number that is not above App Store Connect's latest for the app (when a
    /// key is given): App Store Connect takes each build number once, increasing.
    func checkAgainstAppStoreConnect(_ context: StepContext, buildNumber number: String?) async throws {
        guard let connection, let bundleID, let number else { return }
        _ = try await AppStoreStepSupport.masked(context) { context, _ in
            let client = try await connection.client(context: context)
            let app = try await client.app(bundleID: bundleID)
            let numbers = try await client.buildNumbers(appID: app.id, version: nil)
            if let latest = numbers.latest, let new = Self.buildParts(number), let old = Self.buildParts(latest), !Self.isAbove(new, old) {
                throw StepError.failed("version.bump would write build number \(number), but App Store Connect's latest for \(bundleID) is "
                    + "\(latest): a build number only goes up, and App Store Connect refuses this one only after the upload. Give a higher "
                    + "one (build-number: \(numbers.next)), or take it from appstore.build-number's 'next'")
            }
            return [:]
        }
    }

    func stamper(_ context: StepContext) -> VersionStamper {
        VersionStamper(fileSystem: context.fileSystem, root: context.workingDirectory, includesIgnoreCase: includesIgnoreCase)
    }

    /// True when the step writes an app's version (an Xcode project or Info.plists): then the
    /// version the files hold is the current one, and the tags only give the history.
    var writesAppVersion: Bool {
        targets.contains { target in
            switch target {
            case .xcodeproj, .infoPlist: true
            case .versionFile, .pattern: false
            }
        }
    }

    func resolved(_ context: StepContext) -> [VersionStamper.Target] {
        targets.map { target in
            switch target {
            case .versionFile(let path): return .versionFile(path: context.resolve(path))
            case .pattern(let path, let pattern): return .pattern(path: context.resolve(path), pattern: pattern)
            case .infoPlist(let path): return .infoPlist(path: context.resolve(path))
            case .xcodeproj(let path, let names): return .xcodeproj(path: context.resolve(path), targets: names)
            }
        }
    }

    /// The state, the next version, and the note `auto` gives when it bumped patch for lack of
    /// Conventional Commits.
    func compute(_ context: StepContext) throws -> (ReleasePlanner.State, String, String?) {
        let planner = try ReleasePlanner(directory: context.workingDirectory, tagPrefix: tagPrefix)
        let state = try planner.state()
        if keepsVersion {
            let (version, places) = try currentVersion(context)
            return (state, version, "strategy keep: the version stays \(version) (\(places.joined(separator: ", "))); only the build number changes")
        }
        if writesAppVersion {
            let (values, places, listed, example) = try projectVersions(context)
            if values.count == 1, let current = values.first, Self.isVersion(current) {
                return try nextFromProject(current, places: places, planner: planner, state: state, context: context)
            }
            // The files hold no one version to start from: a given version is written as given
            // (nothing to compare it with, said in the plan); a bump needs one.
            guard case .exact(let given) = strategy else {
                throw StepError.invalidOption(name: "strategy", problem: values.isEmpty
                    ? "'\(strategy)' bumps the project's version, but this step writes no version; give xcodeproj, info-plists, version-file or files"
                    : values.count == 1 ? "'\(strategy)' bumps the project's version, but '\(values[0])' (\(places.joined(separator: ", "))) is not a version (one to three numbers, such as 1.2.0 or 2021.1); write one there, or give the version as the strategy"
                    : "'\(strategy)' bumps the project's version, but the files hold several (\(listed)); choose the targets to bump with "
                      + "the step's option 'targets' (targets: [\(example.joined(separator: ", "))]), make them agree, or give the version as the strategy "
                      + "(written to every one of them)")
            }
            try planner.checkTagIsFree(for: given, state: state)
            return (state, state.written(given), nil)
        }
        // With no release tag at all, 'auto' cannot know whether the files' version was released
        // (untagged releases happen), so it refuses; the version given explicitly is the first
        // release (see checkNotBackwards).
        let next = try planner.nextVersionExplained(strategy, state: state)
        try planner.checkTagIsFree(for: next.version, state: state)
        let first = try checkNotBackwards(next.version, written: state.written(next.version), context: context,
                                          firstRelease: state.previousTag == nil)
        return (state, state.written(next.version), [next.note, first.map(Self.firstReleaseNote)].compactMap { $0 }.first)
    }

    /// "no release tag yet: …, the first release".
    static func firstReleaseNote(_ held: (version: SemanticVersion, place: String)) -> String {
        "no release tag yet, so \(held.version), the version \(held.place) holds, is released as the first release"
    }

    /// `file:line key` of a planned change.
    static func place(_ change: VersionChange) -> String {
        (change.line.map { "\(change.file):\($0)" } ?? change.file) + (change.key.map { " " + $0 } ?? "")
    }

    /// For an app, the next version from the one the project holds (see
    /// `ReleasePlanner.nextVersion(fromProject:places:strategy:state:)`).
    func nextFromProject(_ current: String, places: [String], planner: ReleasePlanner, state: ReleasePlanner.State,
                         context: StepContext) throws -> (ReleasePlanner.State, String, String?) {
        let next = try planner.nextVersion(fromProject: current, places: places, strategy: strategy, state: state)
        return (next.state, next.written, next.notes.isEmpty ? nil : next.notes.joined(separator: "; "))
    }

    /// Refuses, before anything is written, a version at or below one the files to be written
    /// hold now (a VERSION file, a pattern file, an Info.plist, an xcconfig). With
    /// `firstRelease` (no release tag yet), the version the files hold is allowed: it has never
    /// been released; then returns it and where it is.
    @discardableResult
    func checkNotBackwards(_ next: SemanticVersion, written: String, context: StepContext,
                           firstRelease: Bool = false) throws -> (version: SemanticVersion, place: String)? {
        let probe = try stamper(context).plan(resolved(context), version: written, buildNumber: nil)
        var equal: (version: SemanticVersion, place: String)?
        for change in probe.changes where change.role == .version {
            let old = change.old.trimmingCharacters(in: .whitespaces)
            let parts = old.split(separator: ".").count
            guard let read = ReleaseTagVersion(parts == 1 ? old + ".0" : old) ?? ReleaseTagVersion(old, allowingV: true),
                  next <= read.version else { continue }
            if firstRelease, next == read.version {
                equal = equal ?? (next, Self.place(change))
                continue
            }
            throw ReleaseError.backwards(next: written, current: old, places: [Self.place(change)])
        }
        return equal
    }

    /// The build number to write: the option's, or for `increment` the one the files hold plus
    /// one (fastlane's increment_build_number without a number, which runs agvtool).
    func buildNumber(_ context: StepContext) throws -> String? {
        guard buildNumber == "increment" else { return buildNumber }
        let probe = try stamper(context).plan(resolved(context), version: "0.0.0", buildNumber: "0")
        let builds = probe.changes.filter { $0.role == .buildNumber }
        let values = Set(builds.map(\.old))
        guard let value = values.first, values.count == 1, Self.buildParts(value) != nil else {
            let listed = builds.map { "\($0.file)\($0.line.map { ":\($0)" } ?? "") = \($0.old)" }.joined(separator: ", ")
            throw StepError.invalidOption(name: "build-number", problem: "'increment' adds 1 to the project's build number, but "
                + (builds.isEmpty ? "this step writes none (give xcodeproj or info-plists)"
                    : "the files hold \(values.count == 1 ? "one that is not a number" : "several") (\(listed)); make them one number, or give the build number"))
        }
        return Self.nextBuild(value)
    }

    /// A build number's numbers (`1.2.30` → [1, 2, 30]), nil when it is not dotted numbers.
    static func buildParts(_ text: String) -> [Int]? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { $0.allSatisfy(\.isNumber) ? Int($0) : nil }
        return !parts.isEmpty && numbers.count == parts.count ? numbers : nil
    }

    /// Whether build number `lhs` is above `rhs`, number by number (a missing number is 0).
    static func isAbove(_ lhs: [Int], _ rhs: [Int]) -> Bool {
        for index in 0..<max(lhs.count, rhs.count) {
            let left = index < lhs.count ? lhs[index] : 0, right = index < rhs.count ? rhs[index] : 0
            if left != right { return left > right }
        }
        return false
    }

    static func nextBuild(_ old: String) -> String {
        guard var parts = buildParts(old), let last = parts.popLast() else { return "a higher number" }
        return (parts + [last + 1]).map(String.init).joined(separator: ".")
    }

    /// The distinct versions the files to be written hold now, and where (one entry per place).
    /// With them, each place and value listed (`App/Info.plist = 2.1 ('App')`), naming the
    /// targets, and the targets holding the first value (an example of the option 'targets').
    func projectVersions(_ context: StepContext) throws -> (values: [String], places: [String], listed: String, example: [String]) {
        let probe = try stamper(context).plan(resolved(context), version: "0.0.0", buildNumber: nil)
        let versions = probe.changes.filter { $0.role == .version }
        var values: [String] = []
        for change in versions where !values.contains(change.old) { values.append(change.old) }
        let places = versions.map { change in (change.line.map { "\(change.file):\($0)" } ?? change.file) + (change.key.map { " " + $0 } ?? "") }
        let listed = versions.map { change in
            "\(change.line.map { "\(change.file):\($0)" } ?? change.file) = \(change.old)"
                + (change.targets.isEmpty ? "" : " (\(change.targets.map { "'\($0)'" }.joined(separator: ", ")))")
        }.joined(separator: ", ")
        var example: [String] = []
        for change in versions where change.old == values.first {
            for target in change.targets where !example.contains(target) { example.append(target) }
        }
        return (values, values.count == 1 ? places : versions.map { change in (change.line.map { "\(change.file):\($0)" } ?? change.file) }, listed, example)
    }

    /// One to three numbers (`7.75`, `1.2.0`, `2021`).
    static func isVersion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...3).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.count <= 9 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// The version the files to be written hold now (`strategy: keep`): they must agree. It is
    /// kept as written (Apple's versions may have one to three parts, e.g. 2021.1).
    func currentVersion(_ context: StepContext) throws -> (String, [String]) {
        let probe = try stamper(context).plan(resolved(context), version: "0.0.0", buildNumber: nil)
        let versions = probe.changes.filter { $0.role == .version }
        let places = versions.map { change in (change.line.map { "\(change.file):\($0)" } ?? change.file) + (change.key.map { " " + $0 } ?? "") }
        let values = Set(versions.map(\.old))
        guard let value = values.first else {
            throw StepError.invalidOption(name: "strategy", problem: "'keep' keeps the version the project has, but this step writes no version; give xcodeproj, info-plists, version-file or files")
        }
        guard values.count == 1 else {
            let listed = versions.map { "\($0.file)\($0.line.map { ":\($0)" } ?? "") = \($0.old)" }.joined(separator: ", ")
            throw StepError.invalidOption(name: "strategy", problem: "'keep' needs one version, but the files hold several (\(listed)); make them agree, or give the version as the strategy")
        }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            throw StepError.invalidOption(name: "strategy", problem: "'keep' keeps '\(value)' (\(places.joined(separator: ", "))), which is not a version (one to three numbers, such as 1.2.0 or 2021.1)")
        }
        return (value, places)
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        let (state, next, note) = try compute(context)
        var effects = state.notes.map { Effect(.check, "note: " + $0) } + state.warnings.map { Effect(.check, "warning: " + $0) }
        if let note { effects.append(Effect(.check, "note: " + note)) }
        if keepsVersion {
            effects.append(Effect(.other, "version \(next) kept (strategy keep)"))
        } else {
            effects.append(Effect(.other, "version \(state.previousWritten ?? "(none)") → \(next) (strategy \(strategy), \(state.commits.count) commit(s) since \(state.previousTag ?? "the first commit"))"))
        }
        let stamper = stamper(context)
        let number = try buildNumber(context)
        let stamp = try stamper.plan(resolved(context), version: next, buildNumber: number)
        effects += stamp.notes.map { Effect(.check, "note: " + $0) }
        if connection != nil, let bundleID {
            effects.append(Effect(.network, "check that build number \(number ?? "") is above App Store Connect's latest for \(bundleID)"))
        }
        // The plan fails where the run would: a file that is a link is never written through.
        try stamper.checkWritable(stamp.edits)
        // With 'keep', the version's places already hold it: said once, not as writes.
        effects += stamp.changes.map { $0.old == $0.new ? Effect(.check, "unchanged: \($0.description)") : Effect(.write, $0.description) }
        return effects
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let (state, next, note) = try compute(context)
        // Worked out once: for 'increment' it reads the project.
        let number = try buildNumber(context)
        try await checkAgainstAppStoreConnect(context, buildNumber: number)
        let stamp = try stamper(context).stamp(resolved(context), version: next, buildNumber: number)
        for note in stamp.notes { context.events.log(.info, note) }
        for note in state.notes { context.events.log(.info, note) }
        for warning in state.warnings { context.events.log(.warning, warning) }
        if let note { context.events.log(.warning, note) }
        context.events.log(.info, "version \(state.previousWritten ?? "(none)") → \(next)")
        for change in stamp.changes { context.events.log(.info, "wrote " + change.description) }
        return ["version": next, "previous": state.previousWritten ?? "",
                "tag": state.tagPrefix + next, "previous-tag": state.previousTag ?? "",
                "files": try JSONFormatting.line(stamp.files)]
    }
}
