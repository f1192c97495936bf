import Foundation
import Git
import Testing
import TestSupport
import TestThreads

@Suite("GitRepository: history and committing", .dedicatedThreads)
struct CommitTests {
    @Test("commits(from:until:) lists newest first and stops at the tag, like git log")
    func history() throws {
        let fixture = try GitFixture()
        try fixture.commit("chore: start")
        try fixture.git("tag", "-a", "v1.0.0", "-m", "one")
        try fixture.commit("feat: add sync\n\nBody line one.\nBody line two.\n")
        try fixture.commit("fix: handle empty groups")
        let repository = try fixture.open()

        let sinceTag = try repository.commits(until: "v1.0.0")
        #expect(sinceTag.map(\.summary) == ["fix: handle empty groups", "feat: add sync"])
        #expect(sinceTag.map(\.oid.hex) == (try fixture.git("log", "--format=%H", "v1.0.0..HEAD").split(separator: "\n").map(String.init)))
        let feat = sinceTag[1]
        #expect(feat.message == "feat: add sync\n\nBody line one.\nBody line two.\n")
        #expect(feat.author.name == GitFixture.userName)
        #expect(feat.author.email == GitFixture.userEmail)
        #expect(feat.shortOID == String(feat.oid.hex.prefix(7)))
        #expect(feat.parents.count == 1)
        let timestamp = try fixture.git("log", "-1", "--format=%at", feat.oid.hex)
        #expect(feat.author.date == Date(timeIntervalSince1970: TimeInterval(timestamp) ?? 0))

        let all = try repository.commits()
        #expect(all.count == 3)
        #expect(all.last?.parents.isEmpty == true)
        #expect(try repository.commits(from: "v1.0.0").map(\.summary) == ["chore: start"])
    }

    @Test("commits() on an unborn branch is empty; an unknown revision is a named error")
    func historyEdges() throws {
        let fixture = try GitFixture()
        let repository = try fixture.open()
        #expect(try repository.commits().isEmpty)
        try fixture.commit("first")
        let error = #expect(throws: GitError.self) { try repository.commits(until: "v9.9.9") }
        guard case let .revisionNotFound(revision, path, _) = error else {
            Issue.record("expected .revisionNotFound, got \(String(describing: error))")
            return
        }
        #expect(revision == "v9.9.9")
        #expect(path == realPath(fixture.path))
        #expect(error?.localizedDescription.hasPrefix("Revision 'v9.9.9' was not found in") == true)
    }

    @Test("a merge is listed before both parents (topological order)")
    func topologicalOrder() throws {
        let fixture = try GitFixture()
        try fixture.commit("base")
        try fixture.git("checkout", "--quiet", "-b", "feature")
        try fixture.commit("feature work", files: ["f.txt": "f\n"])
        try fixture.git("checkout", "--quiet", "main")
        try fixture.commit("main work", files: ["m.txt": "m\n"])
        try fixture.git("merge", "--quiet", "--no-ff", "-m", "merge feature", "feature")
        let commits = try fixture.open().commits()
        #expect(commits.first?.summary == "merge feature")
        #expect(commits.first?.parents.count == 2)
        #expect(commits.last?.summary == "base")
        #expect(Set(commits.map(\.summary)) == ["base", "feature work", "main work", "merge feature"])
    }

    @Test("commit(message:paths:) makes the first commit on an unborn branch")
    func commitOnUnbornBranch() throws {
        let fixture = try GitFixture()
        try fixture.write("README.md", "# App\n")
        try fixture.write("notes.txt", "not committed\n")
        let repository = try fixture.open()
        let oid = try repository.commit(message: "chore: initial commit  \n\n", paths: ["README.md"], signature: testSignature)

        let head = try repository.head()
        #expect(head.branch == "main")
        #expect(head.commit == oid)
        #expect(try fixture.git("rev-parse", "HEAD") == oid.hex)
        #expect(try fixture.git("log", "-1", "--format=%an <%ae>|%B") == "Slipway Test <test@example.com>|chore: initial commit\n")
        #expect(try fixture.git("ls-tree", "-r", "--name-only", "HEAD") == "README.md")
        #expect(try fixture.porcelain() == ["?? notes.txt"])
    }

    @Test("commitAll stages tracked changes and deletions but not untracked files")
    func commitAll() throws {
        let fixture = try GitFixture()
        let parent = try fixture.commit("initial", files: ["a.txt": "a\n", "b.txt": "b\n"])
        try fixture.write("a.txt", "changed\n")
        try FileManager.default.removeItem(atPath: fixture.path + "/b.txt")
        try fixture.write("c.txt", "new\n")
        let repository = try fixture.open()
        let oid = try repository.commitAll(message: "chore(release): 1.1.0", signature: testSignature)
        #expect(try repository.commit("HEAD").parents.map(\.hex) == [parent])
        #expect(try repository.commit(oid.hex).summary == "chore(release): 1.1.0")
        #expect(try fixture.git("ls-tree", "-r", "--name-only", "HEAD") == "a.txt")
        #expect(try fixture.porcelain() == ["?? c.txt"])
    }

    @Test("nothing staged, an empty message: named errors, and HEAD does not move")
    func refusedCommits() throws {
        let fixture = try GitFixture()
        let before = try fixture.commit("initial", files: ["a.txt": "a\n"])
        let repository = try fixture.open()
        let nothing = #expect(throws: GitError.self) { try repository.commit(message: "empty", signature: testSignature) }
        #expect(nothing == .nothingToCommit(repository: realPath(fixture.path)))
        let empty = #expect(throws: GitError.self) {
            try repository.commit(message: " \n", signature: testSignature, allowEmpty: true)
        }
        #expect(empty == .emptyCommitMessage(repository: realPath(fixture.path)))
        let missing = #expect(throws: GitError.self) {
            try repository.commit(message: "x", paths: ["nope.txt"], signature: testSignature)
        }
        #expect(missing == .pathNotFound(path: "nope.txt", repository: realPath(fixture.path)))
        #expect(try fixture.git("rev-parse", "HEAD") == before)
        let allowed = try repository.commit(message: "chore: empty on purpose", signature: testSignature, allowEmpty: true)
        #expect(try fixture.git("rev-parse", "HEAD") == allowed.hex)
    }

    @Test("committing on a detached HEAD moves HEAD, not a branch")
    func detachedCommit() throws {
        let fixture = try GitFixture()
        let first = try fixture.commit("first", files: ["a.txt": "a\n"])
        let mainTip = try fixture.commit("second", files: ["a.txt": "b\n"])
        try fixture.git("checkout", "--quiet", "--detach", first)
        try fixture.write("a.txt", "detached\n")
        let oid = try fixture.open().commit(message: "on detached", paths: ["a.txt"], signature: testSignature)
        #expect(try fixture.git("rev-parse", "HEAD") == oid.hex)
        #expect(try fixture.git("rev-parse", "main") == mainTip)
    }

    @Test("a 10,000-commit history is walked whole, newest first")
    func largeHistory() throws {
        let fixture = try GitFixture()
        let count = 10_000
        var stream = ""
        stream.reserveCapacity(count * 160)
        for number in 1...count {
            let content = "\(number)\n"
            let message = "commit \(number)\n"
            stream += "commit refs/heads/main\nmark :\(number)\n"
            stream += "committer A U Thor <author@example.com> \(1_600_000_000 + number) +0000\n"
            stream += "data \(message.utf8.count)\n\(message)"
            if number > 1 { stream += "from :\(number - 1)\n" }
            stream += "M 644 inline counter.txt\ndata \(content.utf8.count)\n\(content)\n"
        }
        try fixture.git(["fast-import", "--quiet"], input: Data(stream.utf8))
        let repository = try fixture.open()

        // How fast the walk is, is measured by `slipway-bench release`, not here.
        let commits = try repository.commits()
        #expect(commits.count == count)
        #expect(commits.first?.summary == "commit \(count)")
        #expect(commits.last?.summary == "commit 1")
    }
}
