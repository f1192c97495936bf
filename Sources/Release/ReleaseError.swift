import Foundation

/// Why a version or changelog could not be worked out or written. Messages name the subject
/// and say what to do.
public enum ReleaseError: Error, LocalizedError, Sendable, Equatable {
    case invalidStrategy(String)
    case noPreviousVersion
    case nonSemverTags([String])
    /// A version at or below the one the files hold (`current`, at `places`).
    case backwards(next: String, current: String, places: [String])
    /// A version for an app at or below its latest release tag.
    case notAboveLastRelease(next: String, tag: String, tagVersion: String, current: String, places: [String])
    /// The shipping targets of a project hold different versions.
    case projectVersionsDisagree(project: String, values: [String])
    /// The project's version is not one to three numbers.
    case projectVersionUnreadable(String, places: [String])
    /// `--since` names a tag that does not exist.
    case sinceNotFound(String)
    /// `--since` names a tag whose name is not a version of any form Slipway reads.
    case sinceNotAVersion(String, prefix: String)
    case versionNotAfter(String, String)
    /// The next version's tag already names a commit outside HEAD's history.
    case tagExistsElsewhere(version: String, tag: String, commit: String, alternative: String)
    /// `auto` found no releasable commit since the tag `since`; `remedy` says how to release
    /// anyway where the error was met (a CLI flag, a step option), completing "To release anyway, …".
    case nothingToRelease(since: String, commits: Int, remedy: String = ReleaseError.stepRemedy)
    case patternNotFound(file: String, pattern: String)
    case invalidPattern(String, reason: String)
    case settingMissing(file: String, setting: String, targets: [String])
    case plistKeyMissing(file: String, key: String)
    /// Values a version stamp cannot write (xcconfig outside the project, missing include,
    /// cycle, expression, ...): every problem found, each naming its file:line and what to do.
    case versionLocations([String])
    case invalidTemplate(String, reason: String)
    case noUnreleasedSection(file: String)
    /// Style `unreleased`, and nothing is written under `## [Unreleased]`.
    case nothingUnreleased(file: String)
    /// An option (a step option or a flag) whose value is not one of `allowed`.
    case invalidChoice(option: String, value: String, allowed: [String])
    /// Two options that do not go together; the text names both and what to do.
    case optionsConflict(String)
    /// The changelog file does not exist and the step was not asked to create it.
    case changelogMissing(file: String)

    /// How to release anyway from a lane: the `nothingToRelease` remedy of `version.bump`.
    public static let stepRemedy = "set the step's option 'strategy: patch' (or minor, major)"

    public var errorDescription: String? {
        switch self {
        case .invalidStrategy(let text):
            return "'\(text)' is not a version strategy; use auto, major, minor, patch, 'prerelease ID' (e.g. 'prerelease rc') or a version such as 1.4.0"
        case .noPreviousVersion:
            return "there is no semver tag reachable from HEAD, so there is nothing to bump from. Tag the last release (git tag v0.1.0) or give the version explicitly (strategy: 1.0.0)."
        case .nonSemverTags(let tags):
            let list = tags.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
            return "no semver tag is reachable from HEAD; the tags found (\(list)) are not semantic versions. Name release tags like v1.2.3, or give the version explicitly (strategy: 1.0.0)."
        case let .backwards(next, current, places):
            return "version.bump would write \(next) where the project holds \(current) (\(places.joined(separator: ", "))): "
                + "that is not above it, and a release never goes backwards (App Store Connect refuses it only after the upload). "
                + "Give a higher version (strategy: minor, or a version), or correct the project's version"
        case let .notAboveLastRelease(next, tag, tagVersion, current, places):
            return "the next version would be \(next), which is not above the latest release tag '\(tag)' (\(tagVersion)), while the project "
                + "holds \(current) (\(places.joined(separator: ", "))): a release never goes backwards. Raise the project's version "
                + "above \(tagVersion), or give the version (strategy: a version above \(tagVersion))"
        case let .projectVersionsDisagree(project, values):
            return "'\(project)': its targets hold different versions (\(values.joined(separator: ", "))); make them agree, "
                + "or choose the targets (the step's 'targets' option)"
        case let .projectVersionUnreadable(current, places):
            return "the project's version is '\(current)' (\(places.joined(separator: ", "))), which is not a version of one to three numbers "
                + "(such as 7.75 or 1.2.0); write one there, or give the version as the strategy"
        case .sinceNotFound(let tag):
            return "--since names '\(tag)', which is not a tag or commit of this repository; list the tags with 'git tag --list' and give one of them"
        case .sinceNotAVersion(let tag, let prefix):
            return "--since names '\(tag)', which is not a version once its prefix \(prefix.isEmpty ? "(none)" : "'\(prefix)'") is removed "
                + "(Slipway reads 1.2.3, 1.2.3-rc.1, 20.7, 20.8.0.0 and 7.1.3-7206, after the tag prefix), so the next version cannot "
                + "be worked out from it; give the version (--release-version 1.4.0, strategy: 1.4.0), or set the tag prefix (--tag-prefix) "
                + "that comes before the version in '\(tag)'"
        case .versionNotAfter(let version, let previous):
            return "version \(version) is not after the latest release \(previous); give a higher version"
        case .tagExistsElsewhere(let version, let tag, let commit, let alternative):
            return "the next version is \(version), but tag '\(tag)' already exists on commit \(commit), which is not in HEAD's history. "
                + "Merge that commit (its tag then counts as the latest release), give another version (strategy: \(alternative)), "
                + "or delete the tag with 'git tag -d \(tag)' if it was never published."
        case .nothingToRelease(let since, let commits, let remedy):
            return "none of the \(commits) commit(s) since \(since) is a feat, fix, perf or breaking change, so 'auto' has nothing to release. To release anyway, \(remedy)."
        case .patternNotFound(let file, let pattern):
            return "'\(file)' has no match for the version pattern '\(pattern)'; check the file or the pattern (its first capture group must match the version)"
        case .invalidPattern(let pattern, let reason):
            return "the version pattern '\(pattern)' is not a valid regular expression: \(reason)"
        case .settingMissing(let file, let setting, let targets):
            return "'\(file)': \(targets.count == 1 ? "target" : "targets") \(targets.map { "'\($0)'" }.joined(separator: ", ")) \(targets.count == 1 ? "has" : "have") no \(setting) in any build configuration or .xcconfig file (its own or the project's); add it in Xcode (Build Settings), or list only the targets that have it in the step's 'targets' option"
        case .plistKeyMissing(let file, let key):
            return "'\(file)' has no <key>\(key)</key> with a <string> value; add it or remove the file from the step"
        case .versionLocations(let problems):
            return problems.joined(separator: "\n")
        case .invalidTemplate(let path, let reason):
            return "the changelog template '\(path)' is invalid: \(reason)"
        case .nothingUnreleased(let file):
            return "'\(file)' has nothing written under '## [Unreleased]', and style unreleased releases what is written there; "
                + "write the release's notes under it, or choose a style that lists the commits (auto, conventional, subjects or pull-requests)"
        case .noUnreleasedSection(let file):
            return "'\(file)' has no '## [Unreleased]' heading; add one (Keep a Changelog format) where new versions should go"
        case .invalidChoice(let option, let value, let allowed):
            return "\(option) is '\(value)', which is not one of \(allowed.joined(separator: ", ")); use one of those"
        case .optionsConflict(let message):
            return message
        case .changelogMissing(let file):
            return "'\(file)' does not exist; set the step's option 'create: true' to start it (Keep a Changelog format) "
                + "with this release's section, or point 'path' at the project's changelog"
        }
    }
}
