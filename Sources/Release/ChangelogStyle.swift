import Foundation
import Git

/// How the commits of a release are read into a changelog.
public enum ChangelogStyle: String, Sendable, Hashable, CaseIterable {
    /// Detect the style from the commits (`ChangelogStyleChoice.detect`).
    case auto
    /// Every commit's subject, as fastlane's `changelog_from_git_commits` gives them.
    case subjects
    /// Pull-request titles: squash commits `Title (#12)` and merges `Merge pull request #12 from …`.
    case pullRequests = "pull-requests"
    /// Conventional Commits grouped by type (feat under Added, fix under Fixed, …).
    case conventional
    /// No commits: the notes written by hand under `## [Unreleased]` become the version's
    /// section (Keep a Changelog's own way). Only `changelog.update` can use it, since the notes
    /// live in the changelog file.
    case unreleased

    /// The styles that read the commits (every style but `unreleased`).
    public static let fromCommits: [ChangelogStyle] = allCases.filter { $0 != .unreleased }

    /// Reads `text`; throws `ReleaseError.invalidChoice` naming `option` (a step option or a flag)
    /// when it is not one of `allowed`.
    public init(parsing text: String, option: String, allowed: [ChangelogStyle] = ChangelogStyle.allCases) throws {
        guard let style = ChangelogStyle(rawValue: text), allowed.contains(style) else {
            throw ReleaseError.invalidChoice(option: option, value: text, allowed: allowed.map(\.rawValue))
        }
        self = style
    }
}

/// Which commits the `subjects` style lists, by their number of parents.
public enum MergeCommits: String, Sendable, Hashable, CaseIterable {
    /// Leave out merge commits (more than one parent) and subjects that begin "Merge branch",
    /// "Merge pull request" or "Merge remote-tracking branch" (merges squashed or rebased away).
    case exclude
    /// List every commit.
    case include
    /// List merge commits only (more than one parent).
    case only

    /// Reads `text`; throws `ReleaseError.invalidChoice` naming `option`.
    public init(parsing text: String, option: String) throws {
        guard let value = MergeCommits(rawValue: text) else {
            throw ReleaseError.invalidChoice(option: option, value: text, allowed: Self.allCases.map(\.rawValue))
        }
        self = value
    }

    /// Whether `commit` is listed.
    func keeps(_ commit: GitCommit) -> Bool {
        let isMerge = commit.parents.count > 1
        switch self {
        case .include: return true
        case .only: return isMerge
        case .exclude:
            guard !isMerge else { return false }
            let subject = commit.summary
            return !Self.mergeSubjects.contains { subject.hasPrefix($0) }
        }
    }

    /// Subjects git and hosting services give merges.
    static let mergeSubjects = ["Merge branch ", "Merge pull request ", "Merge remote-tracking branch "]
}

/// The style a changelog was made in, and why: detected from the commits, or chosen.
public struct ChangelogStyleChoice: Sendable, Hashable, CustomStringConvertible {
    /// The style used (never `auto`).
    public var style: ChangelogStyle
    /// Why: what the detection counted ("3 of 54 commits since v1.2.0 are Conventional
    /// Commits, …"), or where the style was set.
    public var reason: String
    /// True when the style was detected (`auto`).
    public var isDetected: Bool

    /// A style set explicitly; `source` says where ("--style", "the step's option 'style'").
    public init(style: ChangelogStyle, setWith source: String) {
        self.style = style
        reason = "set with \(source)"
        isDetected = false
    }

    init(detected style: ChangelogStyle, reason: String) {
        self.style = style
        self.reason = reason
        isDetected = true
    }

    /// `subjects (detected: 3 of 54 commits since v1.2.0 are Conventional Commits, …)`.
    public var description: String {
        "\(style.rawValue) (\(isDetected ? "detected: " : "")\(reason))"
    }

    /// The style of the commits since `previousTag` (`conventional[i]` is `commits[i]` parsed;
    /// commits newest first, HEAD first):
    /// - `conventional` when more than half of the commits that are not merges are
    ///   Conventional Commits;
    /// - else `pull-requests` when more than half of the first-parent commits (the main line:
    ///   HEAD, its first parent, and so on) are pull requests, squashed or merged;
    /// - else `subjects`.
    public static func detect(commits: [GitCommit], conventional: [ConventionalCommit?], previousTag: String?) -> ChangelogStyleChoice {
        let since = previousTag.map { "since \($0)" } ?? "in the history"
        guard !commits.isEmpty else { return ChangelogStyleChoice(detected: .conventional, reason: "no commits \(since)") }
        let plain = commits.indices.filter { commits[$0].parents.count <= 1 }
        let conventionalCount = plain.filter { $0 < conventional.count && conventional[$0] != nil }.count
        let counted = "\(conventionalCount) of \(plain.count) commit\(plain.count == 1 ? "" : "s") \(since) "
            + (conventionalCount == 1 ? "is a Conventional Commit" : "are Conventional Commits")
        if conventionalCount * 2 > plain.count {
            return ChangelogStyleChoice(detected: .conventional, reason: counted)
        }
        let mainLine = firstParentLine(commits)
        let pullRequests = mainLine.filter { PullRequestCommit(commits[$0]) != nil }.count
        let pullCounted = "\(pullRequests) of \(mainLine.count) first-parent commit\(mainLine.count == 1 ? "" : "s")"
        let are = pullRequests == 1 ? "is a pull request" : "are pull requests"
        if pullRequests * 2 > mainLine.count {
            return ChangelogStyleChoice(detected: .pullRequests, reason: "\(pullCounted) \(since) \(are) (squashed 'Title (#12)' or merged)")
        }
        return ChangelogStyleChoice(detected: .subjects, reason: "\(counted), and \(pullCounted) \(are)")
    }

    /// The indices of HEAD (`commits[0]`), its first parent, its first parent's first parent, …
    /// as long as they are among `commits`.
    static func firstParentLine(_ commits: [GitCommit]) -> [Int] {
        guard !commits.isEmpty else { return [] }
        var index: [GitOID: Int] = [:]
        for (position, commit) in commits.enumerated() { index[commit.oid] = position }
        var line: [Int] = []
        var current: Int? = 0
        while let position = current, line.count < commits.count {
            line.append(position)
            current = commits[position].parents.first.flatMap { index[$0] }
        }
        return line
    }
}

/// A commit that carries a pull request: a squash merge (`Title (#12)`) or a merge commit
/// (`Merge pull request #12 from owner/branch`, titled by the first line of its body).
public struct PullRequestCommit: Sendable, Hashable {
    /// The pull request's number.
    public var number: Int
    /// Its title.
    public var title: String

    /// The pull request `commit` carries; nil when it carries none. Besides GitHub's squash and
    /// merge subjects, GitLab's merges (`Merge branch 'x' into 'main'` with `See merge request
    /// group/project!12` in the body) and Bitbucket's (`Merged in x (pull request #12)`) count.
    public init?(_ commit: GitCommit) {
        let subject = commit.summary
        if let parsed = Self.squash(subject) ?? Self.otherHosts(commit) {
            self = parsed
            return
        }
        let mergePrefix = "Merge pull request #"
        guard subject.hasPrefix(mergePrefix) else { return nil }
        let rest = subject.dropFirst(mergePrefix.count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let number = Int(digits), number > 0 else { return nil }
        let from = rest.dropFirst(digits.count)
        let branch = from.hasPrefix(" from ") ? String(from.dropFirst(" from ".count)) : ""
        // The body's first non-empty line is the title GitHub puts there.
        let body = commit.message.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        let title = body.map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        self.number = number
        self.title = title ?? (branch.isEmpty ? "pull request #\(number)" : branch)
    }

    /// A GitLab or Bitbucket merge of a merge (pull) request, titled by the first line of its
    /// body that is not the reference.
    static func otherHosts(_ commit: GitCommit) -> PullRequestCommit? {
        let lines = commit.message.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard let subject = lines.first else { return nil }
        let body = lines.dropFirst()
        var number: Int?
        if subject.hasPrefix("Merge branch '"), let reference = body.first(where: { $0.hasPrefix("See merge request ") }),
           let bang = reference.lastIndex(of: "!") {
            number = Int(reference[reference.index(after: bang)...])
        } else if subject.hasPrefix("Merged in "), subject.hasSuffix(")"), let open = subject.range(of: "(pull request #", options: .backwards) {
            number = Int(subject[open.upperBound..<subject.index(before: subject.endIndex)])
        }
        guard let number, number > 0 else { return nil }
        let title = body.first { !$0.isEmpty && !$0.hasPrefix("See merge request ") && !$0.hasPrefix("Approved-by:") }
        return PullRequestCommit(number: number, title: title ?? subject)
    }

    /// The pull request of a squash merge's subject, `Title (#12)`; nil for other subjects.
    public static func squash(_ subject: String) -> PullRequestCommit? {
        guard subject.hasSuffix(")"), let open = subject.range(of: " (#", options: .backwards) else { return nil }
        let digits = subject[open.upperBound..<subject.index(before: subject.endIndex)]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits), number > 0 else { return nil }
        let title = subject[..<open.lowerBound].trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { return nil }
        return PullRequestCommit(number: number, title: title)
    }

    /// Pull request `number`, titled `title`.
    public init(number: Int, title: String) {
        self.number = number
        self.title = title
    }
}
