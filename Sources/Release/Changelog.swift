import Foundation

/// A changelog entry for one version, grouped as Keep a Changelog does.
public struct ChangelogEntry: Sendable, Hashable {
    /// One line of the entry.
    public struct Item: Sendable, Hashable {
        public var scope: String?
        public var description: String
        public var shortHash: String
        /// A link to the commit, when the remote's web address is known.
        public var url: String?
    }

    /// A group ("Breaking", "Added", "Fixed", "Changed") and its items.
    public struct Section: Sendable, Hashable {
        public var title: String
        public var items: [Item]
    }

    public var version: String
    /// `YYYY-MM-DD`.
    public var date: String
    /// A compare link (`https://github.com/o/r/compare/v1.0.0...v1.1.0`), when known.
    public var compareURL: String?
    /// The sections in Keep a Changelog order, empty ones left out.
    public var sections: [Section]

    /// Groups commits: breaking changes under Breaking, `feat` under Added, `fix` under Fixed,
    /// `perf`, `refactor` and `revert` under Changed. Other types (docs, chore, test, ci, build,
    /// style) and non-conventional messages are left out, as they do not change what users get.
    public init(version: String, date: String, commits: [(message: String, hash: String)],
                links: RepositoryLinks?, previousTag: String?, tag: String) {
        self.init(version: version, date: date, parsed: commits.map { (ConventionalCommit(message: $0.message), $0.hash) },
                  links: links, previousTag: previousTag, tag: tag)
    }

    /// The entry for commits already parsed (nil for a message that is not conventional).
    init(version: String, date: String, parsed commits: [(commit: ConventionalCommit?, hash: String)],
         links: RepositoryLinks?, previousTag: String?, tag: String) {
        self.version = version
        self.date = date
        compareURL = previousTag.flatMap { previous in links?.compare(from: previous, to: tag) }
        var groups: [String: [Item]] = [:]
        for commit in commits {
            guard let parsed = commit.commit else { continue }
            let item = Item(scope: parsed.scope, description: parsed.description,
                            shortHash: String(decoding: commit.hash.utf8.prefix(7), as: UTF8.self), url: links?.commit(commit.hash))
            if parsed.isBreaking {
                var breaking = item
                if let note = parsed.breakingNote, !note.isEmpty { breaking.description = note }
                groups["Breaking", default: []].append(breaking)
            }
            switch parsed.type {
            case "feat": groups["Added", default: []].append(item)
            case "fix": groups["Fixed", default: []].append(item)
            case "perf", "refactor", "revert": groups["Changed", default: []].append(item)
            default: break
            }
        }
        sections = ["Breaking", "Added", "Fixed", "Changed"].compactMap { title in
            groups[title].map { Section(title: title, items: $0) }
        }
    }
}

/// Web addresses of a repository on GitHub, GitLab, Bitbucket or Gitea-style hosts, derived
/// from its remote URL (`git@host:owner/repo.git` or `https://host/owner/repo.git`).
public struct RepositoryLinks: Sendable, Hashable {
    /// `https://host/owner/repo`.
    public var base: String

    /// Links for a remote URL; nil for local paths and unknown forms.
    public init?(remoteURL: String) {
        var text = remoteURL.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix(".git") { text.removeLast(4) }
        if text.hasPrefix("git@"), let colon = text.firstIndex(of: ":") {
            let host = text[text.index(text.startIndex, offsetBy: 4)..<colon]
            text = "https://\(host)/\(text[text.index(after: colon)...])"
        } else if text.hasPrefix("ssh://git@") {
            text = "https://" + text.dropFirst("ssh://git@".count)
        }
        guard text.hasPrefix("https://") || text.hasPrefix("http://"),
              let url = URL(string: text), let host = url.host, !host.isEmpty, url.path.split(separator: "/").count >= 2
        else { return nil }
        // Drop credentials (https://token@host/...) so they never reach a changelog.
        base = "\(url.scheme ?? "https")://\(host)\(url.port.map { ":\($0)" } ?? "")\(url.path)"
    }

    /// The page of one commit.
    public func commit(_ hash: String) -> String { "\(base)/commit/\(hash)" }

    /// The comparison of two tags.
    public func compare(from: String, to: String) -> String { "\(base)/compare/\(from)...\(to)" }
}
