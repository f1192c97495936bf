import Basics
import Foundation
import Git
import Testing
import TestSupport
import TestThreads

@Suite("GitRepository: tags", .dedicatedThreads)
struct TagTests {
    @Test("tags() lists lightweight and annotated tags with their commits and messages")
    func listing() throws {
        let fixture = try GitFixture()
        let first = try fixture.commit("first")
        let second = try fixture.commit("second")
        try fixture.git("tag", "light", first)
        try fixture.git("tag", "-a", "v1.0.0", "-m", "Release 1.0.0", second)
        let tree = try fixture.git("rev-parse", "HEAD^{tree}")
        try fixture.git("tag", "tree-tag", tree)

        let tags = try fixture.open().tags()
        #expect(tags.map(\.name) == ["light", "v1.0.0"])
        let light = try #require(tags.first)
        #expect(light.commit.hex == first)
        #expect(!light.isAnnotated && light.message == nil && light.tagger == nil)
        let annotated = try #require(tags.last)
        #expect(annotated.commit.hex == second)
        #expect(annotated.isAnnotated)
        #expect(annotated.tagObject?.hex == (try fixture.git("rev-parse", "v1.0.0")))
        #expect(annotated.message == "Release 1.0.0\n")
        #expect(annotated.tagger?.name == GitFixture.userName)
    }

    @Test("latestSemverTag picks the highest version reachable from HEAD, ignoring other tags")
    func latestReachable() throws {
        let fixture = try GitFixture()
        let base = try fixture.commit("base")
        try fixture.git("tag", "v1.0.0", base)
        try fixture.git("tag", "1.1.0", try fixture.commit("feature"))
        let prerelease = try fixture.commit("rc")
        try fixture.git("tag", "-a", "v1.2.0-rc.1", "-m", "rc", prerelease)
        try fixture.git("tag", "nightly")                 // not a version
        try fixture.git("tag", "v1.1")                    // two numbers, as App Store versions: 1.1.0, below the rc
        try fixture.git("tag", "v01.9.0")                 // leading zero: not SemVer
        // A higher version on a branch that HEAD does not contain.
        try fixture.git("checkout", "--quiet", "-b", "side", base)
        try fixture.git("tag", "v9.0.0", try fixture.commit("side work"))
        try fixture.git("checkout", "--quiet", "main")
        try fixture.commit("after rc")

        let repository = try fixture.open()
        let latest = try #require(try repository.latestSemverTag())
        #expect(latest.tag.name == "v1.2.0-rc.1")
        #expect(latest.version == (try SemanticVersion.parse("1.2.0-rc.1")))
        #expect(latest.tag.commit.hex == prerelease)
        // From the side branch, v9.0.0 is reachable.
        #expect(try repository.latestSemverTag(reachableFrom: "side")?.tag.name == "v9.0.0")
        // From the base commit itself (equal, not a strict ancestor).
        #expect(try repository.latestSemverTag(reachableFrom: base)?.tag.name == "v1.0.0")
        // A prefix restricts the tags that count.
        #expect(try repository.latestSemverTag(prefix: "v")?.tag.name == "v1.2.0-rc.1")
        #expect(try repository.latestSemverTag(prefix: "app-v") == nil)
        // Cross-check with git describe over SemVer-looking tags.
        #expect(try fixture.git("describe", "--tags", "--abbrev=0", "--match", "v1.2*") == "v1.2.0-rc.1")
    }

    @Test("latestSemverTagAndCommits agrees with latestSemverTag and commits(until:) on linear, merged and side-branch histories")
    func latestWithCommits() throws {
        let fixture = try GitFixture()
        let repository = try fixture.open()
        #expect(try repository.latestSemverTagAndCommits().tag == nil, "unborn")
        let base = try fixture.commit("base")
        #expect(try repository.latestSemverTagAndCommits().commits.map(\.oid.hex) == [base], "no tags: every commit")
        try fixture.git("tag", "-a", "v1.0.0", "-m", "one", base)
        #expect(try repository.latestSemverTagAndCommits().tag?.tag.name == "v1.0.0", "the tag on HEAD itself")
        #expect(try repository.latestSemverTagAndCommits().commits.isEmpty)
        // v1.1.0 is made on a topic branch and merged; v9.0.0 stays on a branch HEAD lacks.
        try fixture.git("checkout", "--quiet", "-b", "topic", base)
        let topic = try fixture.commit("topic work")
        try fixture.git("tag", "v1.1.0", topic)
        try fixture.git("checkout", "--quiet", "-b", "side", base)
        try fixture.git("tag", "v9.0.0", try fixture.commit("side work"))
        try fixture.git("checkout", "--quiet", "main")
        try fixture.commit("main work")
        try fixture.git("merge", "--quiet", "--no-ff", "-m", "merge topic", "topic")
        try fixture.commit("after the merge")
        for (revision, prefix) in [("HEAD", nil), ("HEAD", "v"), ("side", nil), ("topic", nil), ("HEAD~1", nil), ("HEAD", "app-v")] as [(String, String?)] {
            let combined = try repository.latestSemverTagAndCommits(from: revision, prefix: prefix)
            let latest = try repository.latestSemverTag(reachableFrom: revision, prefix: prefix)
            #expect(combined.tag == latest, "\(revision)")
            #expect(combined.commits == (try repository.commits(from: revision, until: latest?.tag.name)), "\(revision)")
        }
        #expect(try repository.latestSemverTagAndCommits().tag?.tag.name == "v1.1.0")
        #expect(try repository.latestSemverTagAndCommits().commits.map(\.summary) == ["after the merge", "merge topic", "main work"])
    }

    @Test("latestSemverTag is nil without version tags, on an unborn branch, and says which revision is missing")
    func noVersionTags() throws {
        let unborn = try GitFixture()
        #expect(try unborn.open().latestSemverTag() == nil)

        let fixture = try GitFixture()
        try fixture.commit("only")
        try fixture.git("tag", "release-candidate")
        let repository = try fixture.open()
        #expect(try repository.latestSemverTag() == nil)
        try fixture.git("tag", "v0.1.0")
        let error = #expect(throws: GitError.self) { try repository.latestSemverTag(reachableFrom: "no-such-branch") }
        guard case .revisionNotFound(revision: "no-such-branch", repository: _, libgit2: _) = error else {
            Issue.record("expected .revisionNotFound, got \(String(describing: error))")
            return
        }
    }

    @Test("createAnnotatedTag creates once, is idempotent on the same commit, refuses another commit")
    func annotatedTagIdempotency() throws {
        let fixture = try GitFixture()
        let first = try fixture.commit("first")
        let repository = try fixture.open()

        let created = try repository.createAnnotatedTag(name: "v1.0.0", message: "Release 1.0.0", signature: testSignature)
        guard case let .created(tag) = created else {
            Issue.record("expected .created, got \(created)")
            return
        }
        #expect(tag.commit.hex == first)
        #expect(tag.isAnnotated)
        #expect(try fixture.git("cat-file", "-t", "v1.0.0") == "tag")
        #expect(try fixture.git("tag", "-l", "--format=%(contents:subject)|%(taggername)", "v1.0.0")
            == "Release 1.0.0|Slipway Test")

        let again = try repository.createAnnotatedTag(name: "v1.0.0", message: "Different text", signature: testSignature)
        #expect(again == .alreadyExists(tag))

        let second = try fixture.commit("second")
        let error = #expect(throws: GitError.self) {
            try repository.createAnnotatedTag(name: "v1.0.0", message: "Release 1.0.0", signature: testSignature)
        }
        let firstID = try #require(GitOID(hex: first)), secondID = try #require(GitOID(hex: second))
        #expect(error == .tagConflict(name: "v1.0.0", existing: firstID, requested: secondID))
        let message = error?.localizedDescription ?? ""
        #expect(message.contains(first) && message.contains(second) && message.contains("'v1.0.0'"))
        // The tag did not move.
        #expect(try fixture.git("rev-parse", "v1.0.0^{commit}") == first)
    }

    @Test("createAnnotatedTag rejects bad names and unknown targets without creating anything")
    func annotatedTagBadInput() throws {
        let fixture = try GitFixture()
        try fixture.commit("first")
        let repository = try fixture.open()
        let badName = #expect(throws: GitError.self) {
            try repository.createAnnotatedTag(name: "v1..0", message: "x", signature: testSignature)
        }
        guard case .invalidName(kind: "tag", name: "v1..0", libgit2: _) = badName else {
            Issue.record("expected .invalidName, got \(String(describing: badName))")
            return
        }
        let badTarget = #expect(throws: GitError.self) {
            try repository.createAnnotatedTag(name: "v1.0.0", target: "deadbeef", message: "x", signature: testSignature)
        }
        guard case .revisionNotFound(revision: "deadbeef", repository: _, libgit2: _) = badTarget else {
            Issue.record("expected .revisionNotFound, got \(String(describing: badTarget))")
            return
        }
        #expect(try fixture.git("tag", "-l") == "")
    }

    @Test("createAnnotatedTag uses the configured identity when no signature is given")
    func defaultTagger() throws {
        let fixture = try GitFixture()
        try fixture.commit("first")
        try fixture.git("config", "user.name", "Config Person")
        try fixture.git("config", "user.email", "config@example.com")
        let result = try fixture.open().createAnnotatedTag(name: "v0.1.0", message: "first release")
        guard case let .created(tag) = result else {
            Issue.record("expected .created, got \(result)")
            return
        }
        #expect(tag.tagger?.name == "Config Person")
        #expect(tag.tagger?.email == "config@example.com")
    }
}
