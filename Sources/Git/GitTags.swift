import Basics
import CLibgit2
import Foundation

/// A tag that points (directly or through a tag object) at a commit.
public struct GitTag: Sendable, Hashable {
    /// The tag's short name, e.g. `v1.2.3` (its ref is `refs/tags/<name>`).
    public let name: String
    /// The commit the tag finally points at.
    public let commit: GitOID
    /// The tag object's id for an annotated tag; nil for a lightweight tag.
    public let tagObject: GitOID?
    /// The annotation's message; nil for a lightweight tag.
    public let message: String?
    /// Who made the annotated tag, when recorded.
    public let tagger: GitSignature?

    /// True for an annotated tag (a tag object with a message), false for a lightweight one.
    public var isAnnotated: Bool { tagObject != nil }

    /// Creates a tag record.
    public init(name: String, commit: GitOID, tagObject: GitOID?, message: String?, tagger: GitSignature?) {
        self.name = name
        self.commit = commit
        self.tagObject = tagObject
        self.message = message
        self.tagger = tagger
    }
}

/// A tag whose name is a version (see `ReleaseTagVersion` for the forms: `1.2.3`, `20.7`,
/// `20.8.0.0`, `7.1.3-7206`).
public struct GitVersionTag: Sendable, Hashable {
    /// The tag.
    public let tag: GitTag
    /// The version its name spells, without prefix (`20.7` is `20.7.0`).
    public let version: SemanticVersion
    /// The build number a four-part or `version-build` tag carries.
    public let build: String?
    /// How the name spells the version.
    public let form: ReleaseTagVersion.Form
    /// The version as the name writes it, without prefix and build (`20.7`).
    public let written: String

    /// Creates a version tag record.
    public init(tag: GitTag, version: SemanticVersion) {
        self.tag = tag
        self.version = version
        build = nil
        form = .semantic
        written = version.description
    }

    /// Creates a record of a tag read as `read`.
    public init(tag: GitTag, read: ReleaseTagVersion) {
        self.tag = tag
        version = read.version
        build = read.build
        form = read.form
        written = read.written
    }

    /// What `ReleaseTagVersion.precedes` orders by.
    public var ordering: ReleaseTagVersion {
        ReleaseTagVersion(ordering: version, build: build, form: form, written: written)
    }
}

/// What `createAnnotatedTag` did.
public enum GitTagCreation: Sendable, Hashable {
    /// The tag was made.
    case created(GitTag)
    /// A tag with that name already pointed at the requested commit; nothing changed. (It may
    /// be a lightweight tag.)
    case alreadyExists(GitTag)
}

extension GitRepository {
    /// Every tag that leads to a commit, sorted by name. Tags of trees or blobs are skipped.
    /// - Throws: `GitError.operationFailed` when the refs cannot be read.
    public func tags() throws -> [GitTag] {
        try withHandle { repo in
            var iterator: OpaquePointer?
            try check(git_reference_iterator_glob_new(&iterator, repo, "refs/tags/*")) {
                .operationFailed(operation: "list the tags of", subject: self.displayPath, libgit2: $0.message)
            }
            defer { git_reference_iterator_free(iterator) }
            var result: [GitTag] = []
            var reference: OpaquePointer?
            while true {
                let code = git_reference_next(&reference, iterator)
                if code == GIT_ITEROVER.rawValue { break }
                try check(code) {
                    .operationFailed(operation: "list the tags of", subject: self.displayPath, libgit2: $0.message)
                }
                defer { git_reference_free(reference) }
                if let tag = Self.tag(from: reference, repo: repo) { result.append(tag) }
            }
            return result.sorted { $0.name < $1.name }
        }
    }

    /// The tag called `name`, or nil when there is none (or it does not lead to a commit).
    /// - Throws: `GitError.operationFailed` when the ref cannot be read.
    public func tag(named name: String) throws -> GitTag? {
        try withHandle { repo in try self.tag(named: name, repo: repo) }
    }

    /// The highest semantic version among the tags whose commit is `revision` or one of its
    /// ancestors, like `git describe` restricted to version tags. Names that are not versions
    /// are ignored; pre-releases count (1.2.0-rc.1 is below 1.2.0 but above 1.1.9).
    /// - Parameters:
    ///   - revision: where to look from; an unborn `HEAD` has no tags and gives nil.
    ///   - prefix: when given, only tags named `<prefix><version>` count (e.g. `app-v` in a
    ///     monorepo); when nil, `1.2.3` and `v1.2.3` both count.
    /// - Returns: nil when no version tag is reachable.
    /// - Throws: `GitError.revisionNotFound` when `revision` does not name a commit.
    public func latestSemverTag(reachableFrom revision: String = "HEAD", prefix: String? = nil,
                                accepting accepts: (GitVersionTag) -> Bool = { _ in true }) throws -> GitVersionTag? {
        try latestSemverTag(among: try versionTags(prefix: prefix).filter(accepts), reachableFrom: revision)
    }

    /// The latest version tag reachable from `revision` (as `latestSemverTag` finds it) and the
    /// commits since it (as `commits(from:until:)` lists them; all commits when there is no
    /// such tag): what a release is made of.
    ///
    /// In the usual case, where the highest version tag is in `revision`'s history, this reads
    /// the history once: a commit C is an ancestor of `revision` exactly when C is `revision`
    /// or a parent of one of the commits in `C..revision`, so walking that range both lists
    /// the commits and proves the tag reachable. (Asking libgit2 whether C is an ancestor
    /// first, as `latestSemverTag` does, walks the same range a second time.) When the highest
    /// tag is elsewhere, the remaining tags are checked as `latestSemverTag` does.
    /// - Throws: `GitError.revisionNotFound` when `revision` does not name a commit,
    ///   `.operationFailed` when the history cannot be read.
    public func latestSemverTagAndCommits(from revision: String = "HEAD", prefix: String? = nil,
                                          accepting accepts: (GitVersionTag) -> Bool = { _ in true })
        throws -> (tag: GitVersionTag?, commits: [GitCommit]) {
        if revision == "HEAD", withHandle({ isHeadUnborn($0) }) { return (nil, []) }
        let candidates = try versionTags(prefix: prefix).filter(accepts)
        guard let highest = candidates.first else { return (nil, try commits(from: revision)) }
        let start = try withHandle { try resolveCommit(revision, in: $0) }
        if highest.tag.commit == start { return (highest, []) }
        let since = try commits(from: revision, until: highest.tag.commit.hex)
        if since.contains(where: { $0.parents.contains(highest.tag.commit) }) { return (highest, since) }
        guard let latest = try latestSemverTag(among: Array(candidates.dropFirst()), reachableFrom: revision) else {
            return (nil, try commits(from: revision))
        }
        return (latest, try commits(from: revision, until: latest.tag.commit.hex))
    }

    /// The tags whose names are versions in one of `ReleaseTagVersion`'s forms (`<prefix><version>`
    /// when `prefix` is given; `1.2.3` and `v1.2.3` when nil), highest first: by version, then
    /// build number (a release after its builds), then name.
    public func versionTags(prefix: String?) throws -> [GitVersionTag] {
        try tags().compactMap { tag -> GitVersionTag? in
            let read: ReleaseTagVersion?
            if let prefix {
                guard tag.name.hasPrefix(prefix) else { return nil }
                read = ReleaseTagVersion(String(tag.name.dropFirst(prefix.count)))
            } else {
                read = ReleaseTagVersion(tag.name, allowingV: true)
            }
            return read.map { GitVersionTag(tag: tag, read: $0) }
        }
        .sorted { lhs, rhs in
            let left = lhs.ordering, right = rhs.ordering
            if ReleaseTagVersion.precedes(left, right) { return false }
            if ReleaseTagVersion.precedes(right, left) { return true }
            return lhs.tag.name < rhs.tag.name
        }
    }

    /// The first of `candidates` whose commit is `revision` or one of its ancestors.
    private func latestSemverTag(among candidates: [GitVersionTag], reachableFrom revision: String) throws -> GitVersionTag? {
        guard !candidates.isEmpty else { return nil }
        return try withHandle { repo in
            if revision == "HEAD", isHeadUnborn(repo) { return nil }
            var start = try resolveCommit(revision, in: repo).raw
            for candidate in candidates {
                var tagged = candidate.tag.commit.raw
                if git_oid_equal(&start, &tagged) == 1 { return candidate }
                let answer = git_graph_descendant_of(repo, &start, &tagged)
                try check(answer) {
                    .operationFailed(operation: "walk the history of", subject: self.displayPath, libgit2: $0.message)
                }
                if answer == 1 { return candidate }
            }
            return nil
        }
    }

    /// Makes an annotated tag `name` on the commit `target` names, unless it is already there.
    /// Idempotent, so a release lane can be re-run: a tag of that name on the same commit
    /// gives `.alreadyExists`; on another commit it is an error naming both commits.
    /// - Parameters:
    ///   - target: the revision to tag, `HEAD` by default.
    ///   - message: the annotation, cleaned up as `git tag -m` does.
    ///   - signature: the tagger; nil uses the identity `defaultSignature(environment:)` finds
    ///     (`GIT_COMMITTER_*`/`GIT_AUTHOR_*` in `environment`, else git's configuration).
    ///   - environment: the tagger's environment, read only when `signature` is nil; empty by
    ///     default (git's configuration alone).
    /// - Throws: `GitError.tagConflict`, `.invalidName`, `.revisionNotFound`,
    ///   `.signatureUnavailable`, `.operationFailed`.
    @discardableResult
    public func createAnnotatedTag(
        name: String, target: String = "HEAD", message: String, signature: GitSignature? = nil,
        environment: [String: String] = [:]
    ) throws -> GitTagCreation {
        try withHandle { repo in
            var valid: Int32 = 0
            if git_tag_name_is_valid(&valid, name) < 0 || valid == 0 || name.hasPrefix("-") {
                throw GitError.invalidName(kind: "tag", name: name, libgit2: "invalid reference name 'refs/tags/\(name)'")
            }
            let commitID = try resolveCommit(target, in: repo)
            if let existing = try tag(named: name, repo: repo) {
                guard existing.commit == commitID else {
                    throw GitError.tagConflict(name: name, existing: existing.commit, requested: commitID)
                }
                return .alreadyExists(existing)
            }
            var commitRaw = commitID.raw
            var object: OpaquePointer?
            try check(git_object_lookup(&object, repo, &commitRaw, GIT_OBJECT_COMMIT)) {
                .revisionNotFound(revision: target, repository: self.displayPath, libgit2: $0.message)
            }
            defer { git_object_free(object) }
            let tagger = try signature ?? defaultSignature(repo, environment: environment)
            let text = cleanedMessage(message)
            var tagID = git_oid()
            let code = try tagger.withRaw { raw in git_tag_create(&tagID, repo, name, object, raw, text, 0) }
            if code == GIT_EEXISTS.rawValue, let raced = try tag(named: name, repo: repo) {
                guard raced.commit == commitID else {
                    throw GitError.tagConflict(name: name, existing: raced.commit, requested: commitID)
                }
                return .alreadyExists(raced)
            }
            try check(code) {
                $0.code == GIT_EINVALIDSPEC.rawValue
                    ? .invalidName(kind: "tag", name: name, libgit2: $0.message)
                    : .operationFailed(operation: "create tag '\(name)' in", subject: self.displayPath, libgit2: $0.message)
            }
            guard let created = try tag(named: name, repo: repo) else {
                throw GitError.operationFailed(
                    operation: "read back tag '\(name)' in", subject: displayPath, libgit2: "tag not found after creation")
            }
            return .created(created)
        }
    }

    // MARK: - Helpers

    private func tag(named name: String, repo: OpaquePointer) throws -> GitTag? {
        var reference: OpaquePointer?
        let code = git_reference_lookup(&reference, repo, "refs/tags/" + name)
        if code == GIT_ENOTFOUND.rawValue || code == GIT_EINVALIDSPEC.rawValue { return nil }
        try check(code) {
            .operationFailed(operation: "read tag '\(name)' in", subject: self.displayPath, libgit2: $0.message)
        }
        defer { git_reference_free(reference) }
        return Self.tag(from: reference, repo: repo)
    }

    /// Copies a tag ref into a `GitTag`; nil when it does not lead to a commit.
    private static func tag(from reference: OpaquePointer?, repo: OpaquePointer) -> GitTag? {
        guard let reference, let fullName = string(git_reference_name(reference)) else { return nil }
        let name = String(fullName.dropFirst("refs/tags/".count))
        var peeled: OpaquePointer?
        guard git_reference_peel(&peeled, reference, GIT_OBJECT_COMMIT) == 0 else { return nil }
        defer { git_object_free(peeled) }
        let commit = GitOID(pointer: git_object_id(peeled))
        var resolved: OpaquePointer?
        guard git_reference_resolve(&resolved, reference) == 0 else { return nil }
        defer { git_reference_free(resolved) }
        guard let targetID = git_reference_target(resolved) else { return nil }
        var object: OpaquePointer?
        guard git_object_lookup(&object, repo, targetID, GIT_OBJECT_ANY) == 0 else { return nil }
        defer { git_object_free(object) }
        guard git_object_type(object) == GIT_OBJECT_TAG else {
            return GitTag(name: name, commit: commit, tagObject: nil, message: nil, tagger: nil)
        }
        // A git_tag is a git_object whose type is GIT_OBJECT_TAG; libgit2 allows the cast.
        return GitTag(
            name: name,
            commit: commit,
            tagObject: GitOID(pointer: targetID),
            message: string(git_tag_message(object)),
            tagger: git_tag_tagger(object).map { GitSignature($0.pointee) }
        )
    }
}
