import Basics
import Foundation
import Lanes
import Publish
import Steps
import Testing
import TestSupport
import TestThreads

/// Issue #6's bad inputs, each met the way a user meets it: a real lane file run by the lane
/// runner in a real git repository (and real loopback servers), asserting the exact error the
/// failing step reports and that nothing was half-done — files, commits, index, tags, remote
/// refs and upload destinations as they were (or, where earlier steps legitimately ran, exactly
/// what they did and no more).
@Suite(.dedicatedThreads) struct ReleaseBadInputTests {
    /// bump → changelog → commit → tag, as a release lane has them.
    static let releaseLane = """
        steps:
          - version.bump: { version-file: VERSION }
            id: version
          - changelog.update: { version: "${{ steps.version.outputs.version }}" }
            id: changelog
          - git.commit: { message: "chore(release): ${{ steps.version.outputs.version }}", paths: [VERSION, CHANGELOG.md] }
            id: commit
          - git.tag: { name: "${{ steps.version.outputs.tag }}" }
            id: tag
        """

    /// A project that is a git repository: VERSION and CHANGELOG.md at 1.2.3 (tagged `v1.2.3`
    /// unless `tagged` is false), then a feat and a fix; the lanes are committed too, and
    /// `.slipway/` is ignored as in a real project.
    func project(_ lanes: [String: String], environment: [String: String] = [:], tagged: Bool = true,
                 ignoringSlipway: Bool = true) throws -> LaneFixture {
        let fixture = try LaneFixture(lanes, environment: environment)
        try git(fixture, "init", "--quiet", "--initial-branch=main")
        try git(fixture, "config", "user.name", "Release Bot")
        try git(fixture, "config", "user.email", "bot@example.com")
        if ignoringSlipway { try fixture.write(".gitignore", "/.slipway/\n") }
        try fixture.write("VERSION", "1.2.3\n")
        try fixture.write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n")
        try commit(fixture, "chore: start")
        if tagged { try git(fixture, "tag", "-a", "v1.2.3", "-m", "1.2.3") }
        try fixture.write("Sources/a.swift", "let a = 1\n")
        try commit(fixture, "feat(cli): add a flag")
        try fixture.write("Sources/b.swift", "let b = 2\n")
        try commit(fixture, "fix: crash on empty input")
        return fixture
    }

    @discardableResult
    func git(_ fixture: LaneFixture, _ arguments: String...) throws -> String {
        try GitFixture.run(arguments, in: fixture.path)
    }

    func commit(_ fixture: LaneFixture, _ message: String) throws {
        try git(fixture, "add", "-A")
        try git(fixture, "commit", "--quiet", "-m", message)
    }

    /// What git knows: every ref and what it points at, and `git status` (index and tree).
    func gitState(_ fixture: LaneFixture) throws -> String {
        try git(fixture, "for-each-ref", "--format=%(refname) %(objectname)") + "\n--\n" + git(fixture, "status", "--porcelain")
    }

    /// Every file outside `.git` and `.slipway` (the run journal), with its contents.
    func files(_ fixture: LaneFixture) throws -> [String: Data] {
        try fixture.snapshot().filter { !$0.key.hasPrefix(".git/") && !$0.key.hasPrefix(".slipway/") }
    }

    /// Runs `lane`, expecting it to fail at step `failing` with exactly `message`, every later
    /// step skipped, and the console showing the message.
    func runExpectingFailure(_ fixture: LaneFixture, _ lane: String = "release", failing: String, message: String,
                             sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> LaneFixture.Outcome {
        let outcome = try await fixture.run(lane)
        #expect(outcome.summary.status == .failed, sourceLocation: sourceLocation)
        let steps = outcome.summary.steps
        let index = steps.firstIndex { $0.id == failing }
        #expect(index != nil, "no step '\(failing)' in \(steps.map(\.id))", sourceLocation: sourceLocation)
        if let index {
            #expect(steps[index].status == .failed, sourceLocation: sourceLocation)
            #expect(steps[index].error == message, sourceLocation: sourceLocation)
            #expect(steps[(index + 1)...].allSatisfy { $0.status == .skipped }, "\(steps.map { "\($0.id): \($0.status)" })",
                    sourceLocation: sourceLocation)
        }
        // The console indents the lines after the first.
        #expect(outcome.console.contains(message.split(separator: "\n")[0]), sourceLocation: sourceLocation)
        return outcome
    }

    // MARK: - Versions and tags

    @Test func noTagsAndNoExplicitVersion() async throws {
        let fixture = try project(["release": Self.releaseLane], tagged: false)
        let (before, state) = (try files(fixture), try gitState(fixture))
        try await runExpectingFailure(fixture, failing: "version", message:
            "there is no semver tag reachable from HEAD, so there is nothing to bump from. Tag the last release (git tag v0.1.0) or give the version explicitly (strategy: 1.0.0).")
        #expect(try files(fixture) == before)
        #expect(try gitState(fixture) == state)
    }

    /// CI's default checkout is a shallow clone of one commit: the last release is not in it.
    @Test func shallowCloneWithoutTheLastRelease() async throws {
        let fixture = try project(["release": Self.releaseLane])
        let clone = try TemporaryDirectory(prefix: "slipway-shallow")
        try GitFixture.run(["clone", "--quiet", "--depth", "1", "file://" + fixture.path, clone.path + "/repo"], in: fixture.path)
        try FileManager.default.removeItem(atPath: fixture.path + "/.git")
        try FileManager.default.moveItem(atPath: clone.path + "/repo/.git", toPath: fixture.path + "/.git")
        let (before, state) = (try files(fixture), try gitState(fixture))
        try await runExpectingFailure(fixture, failing: "version", message:
            "'\(fixture.path)' is a shallow clone, and the search for the last release tag reaches past the commits it has (its one commit has no release tag). Fetch the whole history with 'git fetch --unshallow --tags' (in GitHub Actions: actions/checkout with 'fetch-depth: 0'), then try again.")
        #expect(try files(fixture) == before)
        #expect(try gitState(fixture) == state)
    }

    @Test func nonSemverLatestTag() async throws {
        let fixture = try project(["release": Self.releaseLane], tagged: false)
        try git(fixture, "tag", "release-2024")
        try git(fixture, "tag", "-a", "nightly", "-m", "nightly")
        let (before, state) = (try files(fixture), try gitState(fixture))
        try await runExpectingFailure(fixture, failing: "version", message:
            "no semver tag is reachable from HEAD; the tags found ('nightly', 'release-2024') are not semantic versions. Name release tags like v1.2.3, or give the version explicitly (strategy: 1.0.0).")
        #expect(try files(fixture) == before)
        #expect(try gitState(fixture) == state)
    }

    /// The next version's tag already exists on a commit outside HEAD's history (a release
    /// made from another branch): found by version.bump, before any file is written, rather
    /// than by git.tag after the release commit.
    @Test func nextVersionsTagExistsOnAnotherCommit() async throws {
        let fixture = try project(["release": Self.releaseLane])
        try git(fixture, "checkout", "--quiet", "-b", "hotfix", "v1.2.3")
        try fixture.write("Sources/hotfix.swift", "let hotfix = true\n")
        try commit(fixture, "feat: hotfix feature")
        try git(fixture, "tag", "-a", "v1.3.0", "-m", "1.3.0 from the hotfix branch")
        let elsewhere = try git(fixture, "rev-parse", "v1.3.0^{commit}")
        try git(fixture, "checkout", "--quiet", "main")
        let (before, state) = (try files(fixture), try gitState(fixture))
        try await runExpectingFailure(fixture, failing: "version", message:
            "the next version is 1.3.0, but tag 'v1.3.0' already exists on commit \(elsewhere.prefix(7)), which is not in HEAD's history. "
            + "Merge that commit (its tag then counts as the latest release), give another version (strategy: 1.3.1), "
            + "or delete the tag with 'git tag -d v1.3.0' if it was never published.")
        #expect(try files(fixture) == before)
        #expect(try gitState(fixture) == state)
        #expect(try git(fixture, "rev-parse", "v1.3.0^{commit}") == elsewhere)
    }

    /// git.tag with a name that is taken on another commit: the tag stays where it was, and
    /// the push after it never runs.
    @Test func tagThatExistsOnAnotherCommit() async throws {
        let remote = try GitFixture(prefix: "slipway-remote", bare: true)
        let fixture = try project(["release": """
            steps:
              - git.tag: { name: v1.2.3, message: "Release 1.2.3 again" }
                id: tag
              - git.push: { remote: "\(remote.path)", tags: [v1.2.3] }
                id: push
            """])
        let tagged = try git(fixture, "rev-parse", "v1.2.3^{commit}")
        let head = try git(fixture, "rev-parse", "HEAD")
        let tagObject = try git(fixture, "rev-parse", "v1.2.3")
        let (before, state) = (try files(fixture), try gitState(fixture))
        try await runExpectingFailure(fixture, failing: "tag", message:
            "Tag 'v1.2.3' already exists on commit \(tagged.prefix(7)) (\(tagged)), not on the requested commit \(head.prefix(7)) (\(head)). "
            + "Pick a new version, or delete the old tag with 'git tag -d v1.2.3' if it was never published.")
        #expect(try git(fixture, "rev-parse", "v1.2.3") == tagObject, "the tag object is the same")
        #expect(try files(fixture) == before)
        #expect(try gitState(fixture) == state)
        #expect(try remote.git("for-each-ref") == "", "nothing was pushed")
    }

    // MARK: - Commit and push

    /// A stray file when git.commit runs: the bump and changelog steps before it did their
    /// work (kept for --resume), but nothing was staged, committed or tagged; once the stray
    /// file is gone, --resume finishes the release with exactly the two files.
    @Test func dirtyTreeBeforeCommit() async throws {
        let fixture = try project(["release": Self.releaseLane])
        try fixture.write("notes.txt", "not for the release\n")
        try fixture.write("Sources/a.swift", "let a = 42 // unfinished\n")
        let head = try git(fixture, "rev-parse", "HEAD")
        let tags = try git(fixture, "tag", "--list")
        try await runExpectingFailure(fixture, failing: "commit", message: """
            the working tree has changes outside the files to commit (VERSION, CHANGELOG.md):
               M Sources/a.swift
              ?? notes.txt
            Commit or stash them before the release, or set allow-dirty: true.
            """)
        #expect(try git(fixture, "rev-parse", "HEAD") == head, "no commit")
        #expect(try git(fixture, "diff", "--cached", "--name-only") == "", "nothing staged")
        #expect(try git(fixture, "tag", "--list") == tags, "no tag")
        #expect(try git(fixture, "status", "--porcelain") == " M CHANGELOG.md\n M Sources/a.swift\n M VERSION\n?? notes.txt")
        #expect(try String(contentsOfFile: fixture.path + "/VERSION", encoding: .utf8) == "1.3.0\n")
        #expect(try String(contentsOfFile: fixture.path + "/notes.txt", encoding: .utf8) == "not for the release\n")

        try FileManager.default.removeItem(atPath: fixture.path + "/notes.txt")
        try git(fixture, "checkout", "--", "Sources/a.swift")
        let resumed = try await fixture.run("release") { $0.resume = true }
        #expect(resumed.summary.status == .succeeded, "\(resumed.console)")
        #expect(try git(fixture, "show", "--name-only", "--format=%s", "HEAD") == "chore(release): 1.3.0\n\nCHANGELOG.md\nVERSION")
        #expect(try git(fixture, "rev-parse", "v1.3.0^{commit}") == (try git(fixture, "rev-parse", "HEAD")))
        #expect(try git(fixture, "status", "--porcelain") == "")
    }

    /// A project that does not ignore `.slipway/`: the run journal the runner writes before the
    /// first step is not a change git.ensure-clean or git.commit complain about (it was, and a
    /// first release failed at its first step on "?? .slipway/runs/release/latest.json").
    @Test func theRunJournalDoesNotMakeTheTreeDirty() async throws {
        let fixture = try project(["release": "steps:\n  - git.ensure-clean\n" + Self.releaseLane.dropFirst("steps:\n".count)],
                                  ignoringSlipway: false)
        let outcome = try await fixture.run("release")
        #expect(outcome.summary.status == .succeeded, "\(outcome.console)")
        #expect(try git(fixture, "show", "--name-only", "--format=%s", "HEAD") == "chore(release): 1.3.0\n\nCHANGELOG.md\nVERSION")
        #expect(try git(fixture, "status", "--porcelain") == "?? .slipway/")
    }

    /// A server hook refuses one of three refs. libgit2 cannot push atomically, so the other
    /// two are updated; the error names the refused ref with the server's reason and the refs
    /// that did go through, and the remote holds exactly those.
    @Test func pushRejectedForOneRef() async throws {
        let root = try TemporaryDirectory(prefix: "slipway-daemon")
        _ = try GitFixture.run(["init", "--quiet", "--bare", root.path + "/remote.git"], in: root.path)
        let remote = root.path + "/remote.git"
        try Data("#!/bin/sh\ncase \"$1\" in refs/tags/v9*) echo \"tags v9* are reserved\"; exit 1;; esac\n".utf8)
            .write(to: URL(fileURLWithPath: remote + "/hooks/update"))
        chmod(remote + "/hooks/update", 0o755)
        let daemon = try GitDaemon(serving: root.path)
        let fixture = try project(["release": """
            steps:
              - git.push: { tags: [v1.2.3, v9.0.0] }
                id: push
            """])
        try git(fixture, "tag", "-a", "v9.0.0", "-m", "nine")
        try git(fixture, "remote", "add", "origin", daemon.url(for: "remote.git"))
        let (before, state) = (try files(fixture), try gitState(fixture))
        let outcome = try await fixture.run("release")
        #expect(outcome.summary.status == .failed)
        let error = outcome.summary.steps.first?.error ?? ""
        #expect(error.hasPrefix("Remote 'origin' rejected 'refs/tags/v9.0.0' (hook declined). These refs were pushed: 'refs/heads/main', 'refs/tags/v1.2.3'."),
                "\(error)")
        #expect(error.contains("tags v9* are reserved"), "the server's own words: \(error)")
        #expect(error.hasSuffix("Check the server's rules for these refs (protected branches, hooks), then push again."), "\(error)")
        #expect(try GitFixture.run(["for-each-ref", "--format=%(refname)"], in: remote) == "refs/heads/main\nrefs/tags/v1.2.3")
        #expect(try files(fixture) == before)
        // Locally only the remote-tracking branch moved, as 'git push' moves it.
        let main = try git(fixture, "rev-parse", "main")
        #expect(try gitState(fixture) == state.replacingOccurrences(of: "refs/heads/main \(main)\n", with: "refs/heads/main \(main)\nrefs/remotes/origin/main \(main)\n"))
    }

    // MARK: - Signing

    static let signLane = """
        secrets: [SIGNING_KEY_PASSPHRASE]
        steps:
          - checksums: { files: ["dist/*.tar.gz"] }
            id: sums
          - sign: { files: ["dist/*"], key: "${{ inputs.key }}", passphrase: "${{ secrets.SIGNING_KEY_PASSPHRASE }}" }
            id: sign
          - upload: { files: ["dist/*"], directory: published }
            id: upload
        inputs:
          key: { default: keys/release.sec }
        """

    func signingProject(passphrase: String) throws -> LaneFixture {
        let fixture = try LaneFixture(["release": Self.signLane], environment: ["SIGNING_KEY_PASSPHRASE": passphrase])
        try fixture.write("dist/tool-1.0.tar.gz", "not really a tarball\n")
        let keys = try SignifyKeyGenerator().generate(name: "release", passphrase: Array("the right one".utf8))
        try fixture.write("keys/release.sec", keys.secretKey.text)
        try fixture.write("keys/bad.sec", "untrusted comment: signify secret key\n!!! this is not base64 !!!\n")
        return fixture
    }

    @Test func wrongSigningKeyPassphrase() async throws {
        let fixture = try signingProject(passphrase: "a wrong one")
        let outcome = try await runExpectingFailure(fixture, failing: "sign", message:
            "the passphrase for 'keys/release.sec' is wrong. Check the secret that holds it.")
        #expect(outcome.status("sums") == .succeeded)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path + "/dist").sorted() == ["SHA256SUMS", "tool-1.0.tar.gz"],
                "no signature, not even an empty one")
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/published"), "nothing uploaded")
        #expect(!outcome.console.contains("a wrong one"))
    }

    @Test func malformedSigningKey() async throws {
        let fixture = try signingProject(passphrase: "the right one")
        try fixture.write("lanes/release.yml", Self.signLane.replacingOccurrences(of: "default: keys/release.sec", with: "default: keys/bad.sec"))
        try await runExpectingFailure(fixture, failing: "sign", message:
            "the key 'keys/bad.sec' is malformed: its second line is not valid base64. Give a signify key file made by 'slipway keys generate' or 'signify -G'.")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path + "/dist").sorted() == ["SHA256SUMS", "tool-1.0.tar.gz"])
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/published"))
    }

    // MARK: - Uploads

    func uploadProject(_ server: UploadTestServer, size: Int = 64) throws -> LaneFixture {
        let fixture = try LaneFixture(["release": """
            steps:
              - upload: { to: http, files: ["dist/*.tar.gz"], url: "\(server.url("/releases/{name}"))" }
                id: upload
              - run: touch announced
                id: announce
            """])
        try fixture.write("dist/tool-1.0.tar.gz", String(repeating: "x", count: size))
        return fixture
    }

    func storedFiles(_ server: UploadTestServer) -> [String] {
        (FileManager.default.enumerator(atPath: server.storage)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func uploadRefusedWith403IsNotRetried() async throws {
        let server = try UploadTestServer()
        try server.script(["403"])
        let fixture = try uploadProject(server)
        let before = try files(fixture)
        let outcome = try await runExpectingFailure(fixture, failing: "upload", message:
            "upload of '\(fixture.path)/dist/tool-1.0.tar.gz' to '\(server.url("/releases/tool-1.0.tar.gz"))' was refused: "
            + "HTTP 403 (forbidden: token lacks upload scope). Check the credentials, permissions and URL; 4xx answers are not retried.")
        #expect(try server.log().map(\.action) == ["403"], "one request, no retry")
        #expect(!outcome.console.contains("retrying"))
        #expect(storedFiles(server) == [])
        #expect(try files(fixture) == before)
    }

    @Test func uploadFailingWith500ThreeTimesIsRetriedThenFailsClearly() async throws {
        let server = try UploadTestServer()
        try server.script(["500", "500", "500"])
        let fixture = try uploadProject(server)
        let before = try files(fixture)
        let outcome = try await runExpectingFailure(fixture, failing: "upload", message:
            "upload of '\(fixture.path)/dist/tool-1.0.tar.gz' to '\(server.url("/releases/tool-1.0.tar.gz"))' failed after 3 attempts: "
            + "HTTP 500 (internal error). Try again later, or check the server.")
        #expect(try server.log().map(\.action) == ["500", "500", "500"])
        #expect(outcome.console.contains("attempt 1 of 3 failed: HTTP 500 (internal error); retrying in "))
        #expect(outcome.console.contains("attempt 2 of 3 failed: HTTP 500 (internal error); retrying in "))
        #expect(storedFiles(server) == [])
        #expect(try files(fixture) == before)
    }

    @Test func uploadWhoseConnectionDropsMidBody() async throws {
        let server = try UploadTestServer()
        try server.script(["drop", "drop", "drop"])
        let fixture = try uploadProject(server, size: 3_000_000)
        let before = try files(fixture)
        let outcome = try await fixture.run("release")
        let error = outcome.summary.steps.first { $0.id == "upload" }?.error ?? ""
        #expect(outcome.status("upload") == .failed)
        #expect(outcome.status("announce") == .skipped)
        // The last part is curl's own words, which depend on when the server hung up
        // ("Send failure: Broken pipe", "Recv failure: Connection reset by peer", "Empty reply
        // from server").
        #expect(error.hasPrefix("upload of '\(fixture.path)/dist/tool-1.0.tar.gz' to '\(server.url("/releases/tool-1.0.tar.gz"))' failed after 3 attempts: "
                + "the server closed the connection before the exchange finished ("), "\(error)")
        #expect(error.hasSuffix("). Try again later, or check the server."), "\(error)")
        let retries = outcome.console.split(separator: "\n").filter { $0.contains("attempt ") }
        #expect(retries.count == 2 && retries.allSatisfy { $0.contains("failed: the server closed the connection before the exchange finished (") },
                "\(retries)")
        #expect(try server.log().map(\.action) == ["drop", "drop", "drop"])
        #expect(storedFiles(server) == [], "no partial object on the server")
        #expect(try files(fixture) == before)
    }

    // MARK: - Files and projects

    @Test func aFileGlobThatMatchesNothing() async throws {
        let fixture = try LaneFixture(["release": """
            steps:
              - archive: { files: ["build/*.app", LICENSE], output: dist/tool.tar.gz }
                id: archive
              - checksums: { files: ["dist/*"] }
                id: sums
            """, "publish": """
            steps:
              - upload: { files: ["dist/*.zip"], directory: published }
                id: upload
            """])
        try fixture.write("LICENSE", "MIT\n")
        try fixture.write("build/tool", "binary\n")
        try fixture.write("dist/tool.tar.gz", "an earlier archive\n")
        let before = try files(fixture)
        try await runExpectingFailure(fixture, failing: "archive", message:
            "no file matches 'build/*.app'. Check the pattern (relative to the working directory) and that an earlier step made the files.")
        try await runExpectingFailure(fixture, "publish", failing: "upload", message:
            "no file matches 'dist/*.zip'. Check the pattern (relative to the working directory) and that an earlier step made the files.")
        #expect(try files(fixture) == before)
    }

    /// version.bump with a VERSION file and an Xcode project whose target lacks
    /// MARKETING_VERSION: the target is named, and neither file is written.
    @Test func pbxprojWithoutTheSettingToBump() async throws {
        let fixture = try project(["release": """
            steps:
              - version.bump: { version-file: VERSION, xcodeproj: App.xcodeproj }
                id: version
              - git.commit: { message: "chore(release): ${{ steps.version.outputs.version }}" }
                id: commit
            """])
        try fixture.write("App.xcodeproj/project.pbxproj", SyntheticXcodeProject.pbxproj(files: 2, groups: 1))
        try commit(fixture, "chore: add the Xcode project")
        let (before, state) = (try files(fixture), try gitState(fixture))
        try await runExpectingFailure(fixture, failing: "version", message:
            "'\(fixture.path)/App.xcodeproj/project.pbxproj': target 'App' has no MARKETING_VERSION in any build configuration or .xcconfig file (its own or the project's); "
            + "add it in Xcode (Build Settings), or list only the targets that have it in the step's 'targets' option")
        #expect(try files(fixture) == before)
        #expect(try gitState(fixture) == state)
    }
}
