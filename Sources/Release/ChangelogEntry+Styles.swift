import Foundation
import Git

/// The entries of the `subjects` and `pull-requests` styles (the `conventional` one is
/// `ChangelogEntry`'s own initializer).
extension ChangelogEntry {
    /// The title of the one section the `subjects` and `pull-requests` styles have: Keep a
    /// Changelog's "Changed", under which hand-written notes of that heading are merged.
    public static let changedTitle = "Changed"

    init(version: String, date: String, compareURL: String?, sections: [Section]) {
        self.version = version
        self.date = date
        self.compareURL = compareURL
        self.sections = sections
    }

    /// Every commit's subject (newest first), filtered by `merges`, each with its short hash.
    static func subjects(version: String, date: String, commits: [GitCommit], merges: MergeCommits,
                         links: RepositoryLinks?, previousTag: String?, tag: String) -> ChangelogEntry {
        let items = commits.filter(merges.keeps).map { commit in
            Item(scope: nil, description: commit.summary, shortHash: commit.oid.short, url: links.map { $0.commit(commit.oid.hex) })
        }
        return ChangelogEntry(version: version, date: date,
                              compareURL: previousTag.flatMap { links?.compare(from: $0, to: tag) },
                              sections: items.isEmpty ? [] : [Section(title: changedTitle, items: items)])
    }

    /// The pull requests among `commits` (newest first, each number once), each as its title
    /// with `#number` in place of the hash; and the first-parent commits that carry none
    /// (direct pushes), which are left out.
    static func pullRequests(version: String, date: String, commits: [GitCommit], links: RepositoryLinks?,
                             previousTag: String?, tag: String) -> (entry: ChangelogEntry, leftOut: [GitCommit]) {
        var seen = Set<Int>()
        var items: [Item] = []
        for commit in commits {
            guard let pull = PullRequestCommit(commit), seen.insert(pull.number).inserted else { continue }
            items.append(Item(scope: nil, description: pull.title, shortHash: "#\(pull.number)",
                              url: links.map { $0.pullRequest(pull.number) }))
        }
        let leftOut = ChangelogStyleChoice.firstParentLine(commits).map { commits[$0] }
            .filter { PullRequestCommit($0) == nil && $0.parents.count <= 1 }
        let entry = ChangelogEntry(version: version, date: date,
                                   compareURL: previousTag.flatMap { links?.compare(from: $0, to: tag) },
                                   sections: items.isEmpty ? [] : [Section(title: changedTitle, items: items)])
        return (entry, leftOut)
    }
}

extension RepositoryLinks {
    /// The page of pull request (merge request) `number`: `/pull/N` on GitHub, `/-/merge_requests/N`
    /// on GitLab, `/pull-requests/N` on Bitbucket, `/pulls/N` on other (Gitea-style) hosts.
    public func pullRequest(_ number: Int) -> String {
        let host = URL(string: base)?.host?.lowercased() ?? ""
        if host == "github.com" || host.hasSuffix(".github.com") || host.contains("github") { return "\(base)/pull/\(number)" }
        if host.contains("gitlab") { return "\(base)/-/merge_requests/\(number)" }
        if host.contains("bitbucket") { return "\(base)/pull-requests/\(number)" }
        return "\(base)/pulls/\(number)"
    }
}
