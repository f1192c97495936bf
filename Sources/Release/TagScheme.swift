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
    }

    /// The latest release: with an empty prefix, the highest version tag with or without `v`;
    /// with the default prefix, the highest of the `v` tags and the bare tags (the scheme of
    /// the higher one wins); with a prefix the user gave, the highest of its tags.
    func latestRelease() throws -> LatestRelease {
        if tagPrefix.isEmpty {
            let latest = try repository.latestSemverTagAndCommits(from: "HEAD", prefix: nil)
            return LatestRelease(tag: latest.tag, commits: latest.commits, prefix: "", warnings: [])
        }
        // One walk finds the prefixed tag and the commits since it.
        let prefixed = try repository.latestSemverTagAndCommits(from: "HEAD", prefix: tagPrefix)
        // An empty prefix selects the names that are versions as they are (`1.2.3`).
        let bare = try repository.latestSemverTag(reachableFrom: "HEAD", prefix: "")
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
