import Foundation
import Git

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
        let parsed = commits.map { ConventionalCommit(message: $0.message) }
        self.init(version: version, date: date, count: commits.count, commit: { parsed[$0] },
                  hash: { commits[$0].hash }, short: { String(decoding: commits[$0].hash.utf8.prefix(7), as: UTF8.self) },
                  links: links, previousTag: previousTag, tag: tag)
    }

    /// The entry for `commits` and their messages already parsed (`conventional[i]` is
    /// `commits[i]`'s), without copying either: a release can have thousands.
    init(version: String, date: String, conventional: [ConventionalCommit?], commits: [GitCommit],
         links: RepositoryLinks?, previousTag: String?, tag: String) {
        self.init(version: version, date: date, count: min(conventional.count, commits.count), commit: { conventional[$0] },
                  hash: { commits[$0].oid.hex }, short: { commits[$0].oid.short },
                  links: links, previousTag: previousTag, tag: tag)
    }

    /// Groups commits: `commit(i)` is the i-th parsed message; `hash(i)` (for links) and
    /// `short(i)` its commit's id.
    private init(version: String, date: String, count: Int, commit: (Int) -> ConventionalCommit?,
                 hash: (Int) -> String, short: (Int) -> String,
                 links: RepositoryLinks?, previousTag: String?, tag: String) {
        self.version = version
        self.date = date
        compareURL = previousTag.flatMap { previous in links?.compare(from: previous, to: tag) }
        var breaking: [Item] = []
        var added: [Item] = []
        var fixed: [Item] = []
        var changed: [Item] = []
        for index in 0..<count {
            guard let parsed = commit(index) else { continue }
            let kind: Int
            switch parsed.type {
            case "feat": kind = 1
            case "fix": kind = 2
            case "perf", "refactor", "revert": kind = 3
            default: kind = 0
            }
            guard parsed.isBreaking || kind > 0 else { continue }
            let item = Item(scope: parsed.scope, description: parsed.description, shortHash: short(index),
                            url: links.map { $0.commit(hash(index)) })
            if parsed.isBreaking {
                var entry = item
                if let note = parsed.breakingNote, !note.isEmpty { entry.description = note }
                breaking.append(entry)
            }
            switch kind {
            case 1: added.append(item)
            case 2: fixed.append(item)
            case 3: changed.append(item)
            default: break
            }
        }
        sections = [("Breaking", breaking), ("Added", added), ("Fixed", fixed), ("Changed", changed)]
            .filter { !$0.1.isEmpty }
            .map { Section(title: $0.0, items: $0.1) }
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
