import Basics
import Foundation
import Git

/// Which tags count as releases. A project's history may use two schemes (`v0.2.1` for its
/// first releases, `1.0.0`…`6.1.1` since), and taking the configured prefix's highest tag
/// alone would then give a wrong baseline without a word: "385 commits since 0.2.1" while
/// the latest release is `6.1.1`.
extension ReleasePlanner {
    /// The latest release reachable from HEAD, the commits since it, the prefix new tags get,
    /// and what to tell the user about the schemes.
    struct LatestRelease {
        var tag: GitVersionTag?
        var commits: [GitCommit]
        var prefix: String
        var warnings: [String]
        /// How the tags were read (said when they are not all `1.2.3`).
        var notes: [String] = []
        /// The form of the latest release's tag: new versions are written the same way.
        var form: ReleaseTagVersion.Form?
    }

    /// The latest release: with an empty prefix, the highest version tag with or without `v`;
    /// with the default prefix, the highest of the `v` tags and the bare tags (the scheme of
    /// the higher one wins); with a prefix the user gave, the highest of its tags.
    func latestRelease() throws -> LatestRelease {
        let scheme = try ReleaseTagScheme(tags: tagPrefix.isEmpty ? try repository.versionTags(prefix: nil)
            : try repository.versionTags(prefix: tagPrefix) + repository.versionTags(prefix: ""))
        var latest = try latestRelease(accepting: scheme.isRelease)
        latest.notes = scheme.notes
        latest.form = latest.tag?.form
        // The highest release of the scheme chosen is reachable from HEAD, or it was made on
        // another branch: everything above the chosen tag is not in HEAD's history.
        let prefix = tagPrefix, bare = latest.prefix.isEmpty
        let newer = scheme.tags.first { tag in
            scheme.isRelease(tag) && (prefix.isEmpty || tag.tag.name.hasPrefix(prefix) != bare)
        }
        if let newer, let chosen = latest.tag, newer.tag.name != chosen.tag.name,
           ReleaseTagVersion.precedes(chosen.ordering, newer.ordering) {
            latest.warnings.append(Self.unreachable(newer, chosen: chosen.tag.name))
        } else if let newer, latest.tag == nil {
            latest.warnings.append(Self.unreachable(newer, chosen: nil))
        }
        return latest
    }

    /// The warning for a release tag higher than the latest one reachable from HEAD.
    static func unreachable(_ newer: GitVersionTag, chosen: String?) -> String {
        "tag '\(newer.tag.name)' is a higher version than \(chosen.map { "'\($0)', the latest release tag" } ?? "any release tag") "
            + "reachable from HEAD, but it is not in HEAD's history (a release made on another branch, as git-flow does on master "
            + "or main). If '\(newer.tag.name)' is the last release, give it with --since \(newer.tag.name) (since: in the step), "
            + "or run from the release branch after merging it back."
    }

    private func latestRelease(accepting isRelease: (GitVersionTag) -> Bool) throws -> LatestRelease {
        if tagPrefix.isEmpty {
            let latest = try repository.latestSemverTagAndCommits(from: "HEAD", prefix: nil, accepting: isRelease)
            return LatestRelease(tag: latest.tag, commits: latest.commits, prefix: "", warnings: [])
        }
        // One walk finds the prefixed tag and the commits since it.
        let prefixed = try repository.latestSemverTagAndCommits(from: "HEAD", prefix: tagPrefix, accepting: isRelease)
        // An empty prefix selects the names that are versions as they are (`1.2.3`).
        let bare = try repository.latestSemverTag(reachableFrom: "HEAD", prefix: "", accepting: isRelease)
        let chosen = LatestRelease(tag: prefixed.tag, commits: prefixed.commits, prefix: tagPrefix, warnings: [])
        guard let bare else { return chosen }
        let bareIsHigher = prefixed.tag.map { bare.version > $0.version } ?? true
        if prefixIsExplicit {
            guard bareIsHigher else { return chosen }
            let baseline = prefixed.tag.map { "the latest release is '\($0.tag.name)'" }
                ?? "no '\(tagPrefix)<version>' tag is reachable from HEAD"
            let warning = "tag-prefix is '\(tagPrefix)', so \(baseline), but tag '\(bare.tag.name)' (no prefix) is a higher version. "
                + "If '\(bare.tag.name)' is the latest release, set the tag prefix to \"\" (tag-prefix: \"\" in the lane, --tag-prefix '' on the command line)."
            return LatestRelease(tag: prefixed.tag, commits: prefixed.commits, prefix: tagPrefix, warnings: [warning])
        }
        guard bareIsHigher else {
            guard let tag = prefixed.tag, tag.version != bare.version else { return chosen }
            return LatestRelease(tag: tag, commits: prefixed.commits, prefix: tagPrefix, warnings: [
                twoSchemes(prefixed: tag, bare: bare, chosen: tag)
                    + "To choose explicitly, set tag-prefix: \(tagPrefix) (--tag-prefix \(tagPrefix)) for the '\(tagPrefix)' tags, "
                    + "or tag-prefix: \"\" (--tag-prefix '') for the others.",
            ])
        }
        let commits = try repository.commits(from: "HEAD", until: bare.tag.commit.hex)
        let warning: String
        if let tag = prefixed.tag {
            warning = twoSchemes(prefixed: tag, bare: bare, chosen: bare)
                + "To choose explicitly, set tag-prefix: \"\" (--tag-prefix '') for the tags without a prefix, "
                + "or tag-prefix: \(tagPrefix) (--tag-prefix \(tagPrefix)) for the '\(tagPrefix)' tags."
        } else {
            warning = "the release tags have no prefix (the latest is '\(bare.tag.name)'), not the default '\(tagPrefix)', so new tags get none either. "
                + "Set tag-prefix: \"\" (--tag-prefix '') to say so and silence this warning."
        }
        return LatestRelease(tag: bare, commits: commits, prefix: "", warnings: [warning])
    }

    /// The start of the warning for a history whose tags use two schemes.
    private func twoSchemes(prefixed: GitVersionTag, bare: GitVersionTag, chosen: GitVersionTag) -> String {
        "the release tags use two schemes: the highest with the prefix '\(tagPrefix)' is '\(prefixed.tag.name)', "
            + "the highest without a prefix is '\(bare.tag.name)'. '\(chosen.tag.name)' is taken as the latest release"
            + (chosen == bare ? " and new tags get no prefix. " : ". ")
    }
}

/// How a repository's version tags are written, and which of them are releases: with both plain
/// tags (`1.2.3`, `20.7`) and tags with a build (`20.8.0.0`, `7.1.3-7206`) in the history, the
/// latter are builds of a version on its way (a beta, a TestFlight build), not releases; with
/// only tags with a build, each is a release and its build number.
struct ReleaseTagScheme {
    let tags: [GitVersionTag]
    let buildsAreReleases: Bool

    /// The scheme of `tags` (highest first, as `versionTags` gives them).
    init(tags: [GitVersionTag]) {
        self.tags = tags
        let hasPlain = tags.contains { !$0.form.hasBuild }
        buildsAreReleases = !hasPlain
    }

    /// Whether `tag` counts as a release.
    func isRelease(_ tag: GitVersionTag) -> Bool { buildsAreReleases || !tag.form.hasBuild }

    /// What to say about the forms, when any tag is not written `1.2.3`: one line naming each
    /// form with an example and how it is read.
    var notes: [String] {
        let forms = Dictionary(grouping: tags, by: \.form)
        guard forms.keys.contains(where: { $0 != .semantic }) else { return [] }
        var parts: [String] = []
        for form in ReleaseTagVersion.Form.allCases {
            guard let group = forms[form], let example = group.first else { continue }
            let one = group.count == 1
            let subject = one ? "'\(example.tag.name)' is" : "\(group.count) tags such as '\(example.tag.name)' are"
            switch form {
            case .semantic:
                parts.append("\(subject) \(one ? "a version" : "versions")")
            case .twoPart:
                parts.append("\(subject) \(one ? "a version" : "versions") of two parts (\(example.written) is ordered as \(example.version))")
            case .fourPart, .versionBuild:
                let shape = form == .fourPart ? "four parts" : "a version, a dash and a number"
                let role = isRelease(example) ? (one ? "a release" : "releases")
                    : (one ? "a build, not a release" : "builds, not releases") + " (the history has release tags without a build)"
                parts.append("\(subject) \(role): \(shape), read as version \(example.written) build \(example.build ?? "")")
            }
        }
        return ["how the tags were read: " + parts.joined(separator: "; ") + "."]
    }
}
