import Basics
import Foundation
import Git
import Networking
import Steps
import TestSupport
import TestThreads
import Testing

/// version.bump, changelog.update and the git steps on real repositories.
@Suite(.dedicatedThreads) struct ReleaseStepTests {
    final class Sink: StepEventSink, @unchecked Sendable {
        func log(_ level: LogLevel, _ message: String) {}
        func progress(fraction: Double?, message: String) {}
        func processOutput(_ stream: ProcessStream, line: String) {}
    }

    func context(_ path: String) -> StepContext {
        StepContext(laneName: "release", stepID: "s", workingDirectory: path, environment: .current,
                    fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(), events: Sink(),
                    services: StepServices(httpClient: SystemHTTPClient()))
    }

    func repository() throws -> GitFixture {
        let fixture = try GitFixture(prefix: "slipway-release")
        try fixture.git("config", "user.name", "Release Bot")
        try fixture.git("config", "user.email", "bot@example.com")
        try fixture.commit("chore: start", files: ["VERSION": "1.2.3\n", "CHANGELOG.md": "# Changelog\n\n## [Unreleased]\n"])
        try fixture.git("tag", "-a", "v1.2.3", "-m", "1.2.3")
        try fixture.commit("feat(cli): add a flag", files: ["a.txt": "a"])
        try fixture.commit("fix: crash on empty input", files: ["b.txt": "b"])
        return fixture
    }

    func options(_ values: [String: OptionValue], for description: StepDescription) -> StepOptions {
        StepOptions(values, for: description)
    }

    @Test func bumpWritesTheNextVersionAndChangelogInserts() async throws {
        let repo = try repository()
        let bump = try VersionBumpStep(options: options(["version-file": .string("VERSION")], for: VersionBumpStep.description))
        let plan = try await bump.plan(in: context(repo.path))
        #expect(plan.map(\.description) == ["other: version 1.2.3 → 1.3.0 (strategy auto, 2 commit(s) since v1.2.3)", "write: VERSION 1.2.3 -> 1.3.0"])
        #expect(try String(contentsOfFile: repo.path + "/VERSION", encoding: .utf8) == "1.2.3\n", "plan writes nothing")
        let outputs = try await bump.run(in: context(repo.path))
        #expect(outputs == ["version": "1.3.0", "previous": "1.2.3", "tag": "v1.3.0", "previous-tag": "v1.2.3", "files": #"["VERSION"]"#])
        #expect(try String(contentsOfFile: repo.path + "/VERSION", encoding: .utf8) == "1.3.0\n")

        let changelog = try ChangelogUpdateStep(options: options(["version": .string("1.3.0")], for: ChangelogUpdateStep.description))
        _ = try await changelog.run(in: context(repo.path))
        let text = try String(contentsOfFile: repo.path + "/CHANGELOG.md", encoding: .utf8)
        #expect(text.contains("## [Unreleased]\n\n## [1.3.0] - "))
        #expect(text.contains("### Added\n- **cli:** add a flag ("))
        #expect(text.contains("### Fixed\n- crash on empty input ("))
        _ = try await changelog.run(in: context(repo.path))
        #expect(try String(contentsOfFile: repo.path + "/CHANGELOG.md", encoding: .utf8) == text, "a second run changes nothing")

        let commit = try GitCommitStep(options: options(["message": .string("chore(release): 1.3.0"), "paths": .list([.string("VERSION"), .string("CHANGELOG.md")])], for: GitCommitStep.description))
        let first = try await commit.run(in: context(repo.path))
        let again = try await commit.run(in: context(repo.path))
        #expect(first == again, "re-running does not commit twice")
        #expect(try repo.git("log", "-1", "--format=%s") == "chore(release): 1.3.0")
        #expect(try repo.git("status", "--porcelain") == "")

        let tag = try GitTagStep(options: options(["name": .string("v1.3.0")], for: GitTagStep.description))
        #expect(try await tag.run(in: context(repo.path))["commit"] == first["commit"])
        #expect(try await tag.run(in: context(repo.path))["commit"] == first["commit"], "an existing tag on the same commit is success")
        #expect(try repo.git("cat-file", "-t", "v1.3.0") == "tag")
        try repo.commit("fix: later", files: ["c.txt": "c"])
        do {
            _ = try await tag.run(in: context(repo.path))
            Issue.record("a tag on another commit must fail")
        } catch {
            #expect(errorText(error).contains("v1.3.0"))
        }
    }

    @Test func noTagsAndNoExplicitVersion() async throws {
        let repo = try GitFixture(prefix: "slipway-release")
        try repo.commit("feat: first", files: ["a": "a"])
        let bump = try VersionBumpStep(options: options([:], for: VersionBumpStep.description))
        do {
            _ = try await bump.run(in: context(repo.path))
            Issue.record("expected an error")
        } catch {
            #expect(errorText(error) == "there is no semver tag reachable from HEAD, so there is nothing to bump from. Tag the last release (git tag v0.1.0) or give the version explicitly (strategy: 1.0.0).")
        }
        let explicit = try VersionBumpStep(options: options(["strategy": .string("1.0.0")], for: VersionBumpStep.description))
        #expect(try await explicit.run(in: context(repo.path))["version"] == "1.0.0")
    }

    @Test func nonSemverLatestTag() async throws {
        let repo = try GitFixture(prefix: "slipway-release")
        try repo.commit("feat: first", files: ["a": "a"])
        try repo.git("tag", "release-2024")
        do {
            _ = try await VersionBumpStep(options: options([:], for: VersionBumpStep.description)).run(in: context(repo.path))
            Issue.record("expected an error")
        } catch {
            #expect(errorText(error) == "no semver tag is reachable from HEAD; the tags found ('release-2024') are not semantic versions. Name release tags like v1.2.3, or give the version explicitly (strategy: 1.0.0).")
        }
    }

    @Test func dirtyTreeBeforeCommit() async throws {
        let repo = try repository()
        try repo.write("VERSION", "1.3.0\n")
        try repo.write("stray.txt", "oops")
        let head = try repo.git("rev-parse", "HEAD")
        let commit = try GitCommitStep(options: options(["message": .string("chore(release): 1.3.0"), "paths": .list([.string("VERSION")])], for: GitCommitStep.description))
        do {
            _ = try await commit.run(in: context(repo.path))
            Issue.record("expected an error")
        } catch {
            #expect(errorText(error) == "the working tree has changes outside the files to commit (VERSION):\n  ?? stray.txt\nCommit or stash them before the release, or set allow-dirty: true.")
        }
        #expect(try repo.git("rev-parse", "HEAD") == head)
        #expect(try repo.git("diff", "--cached", "--name-only") == "", "nothing was staged")
    }

    @Test func pushRejectedForOneRef() async throws {
        let root = try TemporaryDirectory(prefix: "slipway-daemon")
        _ = try GitFixture.run(["init", "--quiet", "--bare", root.path + "/remote.git"], in: root.path)
        let remote = try GitFixture.run(["rev-parse", "--absolute-git-dir"], in: root.path + "/remote.git")
        try Data("#!/bin/sh\ncase \"$1\" in refs/tags/v9*) echo \"tags v9* are reserved\"; exit 1;; esac\n".utf8)
            .write(to: URL(fileURLWithPath: remote + "/hooks/update"))
        chmod(remote + "/hooks/update", 0o755)
        try Data().write(to: URL(fileURLWithPath: remote + "/git-daemon-export-ok"))
        let daemon = try GitDaemon(serving: root.path)
        let repo = try repository()
        try repo.git("tag", "-a", "v9.0.0", "-m", "nine")
        try repo.git("remote", "add", "origin", daemon.url(for: "remote.git"))
        let push = try GitPushStep(options: options(["tags": .list([.string("v1.2.3"), .string("v9.0.0")])], for: GitPushStep.description))
        #expect(try await push.plan(in: context(repo.path)).map(\.description) == ["network: push refs/heads/main:refs/heads/main, refs/tags/v1.2.3:refs/tags/v1.2.3, refs/tags/v9.0.0:refs/tags/v9.0.0 to origin"])
        do {
            _ = try await push.run(in: context(repo.path))
            Issue.record("expected the push to fail")
        } catch {
            #expect(errorText(error).contains("refs/tags/v9.0.0"), "\(errorText(error))")
        }
        let good = try GitPushStep(options: options(["tags": .list([.string("v1.2.3")])], for: GitPushStep.description))
        let outputs = try await good.run(in: context(repo.path))
        #expect(try GitFixture.run(["tag", "--list"], in: remote).contains("v1.2.3"))
        _ = outputs
    }
}
