import Foundation
import Git
import Testing
import TestSupport
import TestThreads

@Suite("GitRepository: opening and HEAD", .dedicatedThreads)
struct RepositoryTests {
    @Test("open(at:) on a plain directory names the path, quotes libgit2 and says what to do")
    func notARepository() throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: GitError.self) { try GitRepository.open(at: directory.path) }
        guard case let .notARepository(path, libgit2) = error else {
            Issue.record("expected .notARepository, got \(String(describing: error))")
            return
        }
        #expect(path == directory.path)
        #expect(libgit2.contains("could not find repository"))
        #expect(error?.localizedDescription ==
            "'\(directory.path)' is not a git repository (libgit2: \(libgit2)). Run 'git init' or pass --no-git.")
        // Nothing was created on the way.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("open(at:) on a path that does not exist is the same error, not a crash")
    func missingPath() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path + "/nope"
        let error = #expect(throws: GitError.self) { try GitRepository.open(at: missing) }
        guard case let .notARepository(path, _) = error else {
            Issue.record("expected .notARepository, got \(String(describing: error))")
            return
        }
        #expect(path == missing)
    }

    @Test(
        "a repository owned by another user is refused with the safe.directory command to run",
        .enabled(if: getuid() == 0, "needs root to hand the repository to another user"),
        .enabled(if: !LibGit2Probe.trustsAllDirectories, "this machine's git config trusts every directory")
    )
    func foreignOwner() throws {
        let fixture = try GitFixture()
        try GitFixture.run(["-c", "safe.directory=*", "commit", "--quiet", "--allow-empty", "-m", "x"], in: fixture.path)
        let chown = Process()
        chown.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        chown.arguments = ["chown", "-R", "65534", fixture.path]
        try chown.run()
        chown.waitUntilExit()
        #expect(chown.terminationStatus == 0)
        let error = #expect(throws: GitError.self) { try GitRepository.open(at: fixture.path) }
        guard case let .unsafeRepositoryOwner(path, libgit2) = error else {
            Issue.record("expected .unsafeRepositoryOwner, got \(String(describing: error))")
            return
        }
        #expect(path == fixture.path)
        #expect(libgit2.contains("not owned by current user"))
        #expect(error?.localizedDescription.hasSuffix(
            "If you trust it, run: git config --global --add safe.directory '\(fixture.path)'") == true)
    }

    @Test("discover(from:) walks up from a subdirectory; open(at:) does not")
    func discover() throws {
        let fixture = try GitFixture()
        try fixture.write("Sources/App/main.swift", "print(1)\n")
        let subdirectory = fixture.path + "/Sources/App"
        let repository = try GitRepository.discover(from: subdirectory)
        #expect(repository.workingDirectory == realPath(fixture.path))
        #expect(repository.gitDirectory == realPath(fixture.path) + "/.git")
        #expect(!repository.isBare)
        #expect(throws: GitError.self) { try GitRepository.open(at: subdirectory) }
    }

    @Test("a fresh `git init` is an unborn branch whose name comes from HEAD's symbolic target")
    func unbornBranch() throws {
        let fixture = try GitFixture(initialize: false)
        try fixture.git("init", "--quiet", "--initial-branch=trunk")
        let head = try fixture.open().head()
        #expect(head.branch == "trunk")
        #expect(head.referenceName == "refs/heads/trunk")
        #expect(head.commit == nil)
        #expect(head.isUnborn)
        #expect(!head.isDetached)
    }

    @Test("HEAD on a branch with commits, then detached at the first commit")
    func detachedHead() throws {
        let fixture = try GitFixture()
        let first = try fixture.commit("first", files: ["a.txt": "a\n"])
        let second = try fixture.commit("second", files: ["a.txt": "b\n"])
        let repository = try fixture.open()
        let onBranch = try repository.head()
        #expect(onBranch.branch == "main")
        #expect(onBranch.commit?.hex == second)
        #expect(!onBranch.isDetached && !onBranch.isUnborn)

        try fixture.git("checkout", "--quiet", "--detach", first)
        let detached = try repository.head()
        #expect(detached.isDetached)
        #expect(detached.branch == nil)
        #expect(detached.commit?.hex == first)
        #expect(!detached.isUnborn)
    }

    @Test("a bare repository has no working directory and refuses working-tree operations")
    func bareRepository() throws {
        let fixture = try GitFixture(bare: true)
        let repository = try fixture.open()
        #expect(repository.isBare)
        #expect(repository.workingDirectory == nil)
        #expect(repository.gitDirectory == realPath(fixture.path))
        let error = #expect(throws: GitError.self) { try repository.status() }
        #expect(error == .bareRepository(path: realPath(fixture.path), operation: "read the status"))
    }

    @Test("remoteURL reads a configured remote and names a missing one")
    func remoteURL() throws {
        let fixture = try GitFixture()
        try fixture.git("remote", "add", "origin", "https://example.com/team/app.git")
        let repository = try fixture.open()
        #expect(try repository.remoteURL() == "https://example.com/team/app.git")
        let error = #expect(throws: GitError.self) { try repository.remoteURL(name: "upstream") }
        #expect(error == .remoteNotFound(name: "upstream", repository: realPath(fixture.path)))
        #expect(error?.localizedDescription.contains("git remote add upstream URL") == true)
    }

    @Test("one repository value can be shared by concurrent tasks")
    func concurrentUse() async throws {
        let fixture = try GitFixture()
        for number in 1...5 { try fixture.commit("commit \(number)", files: ["f.txt": "\(number)\n"]) }
        try fixture.git("tag", "v1.0.0")
        try fixture.write("f.txt", "changed\n")
        let repository = try fixture.open()
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for round in 0..<24 {
                group.addTask {
                    switch round % 4 {
                    case 0: return try repository.commits().count
                    case 1: return try repository.status().count
                    case 2: return try repository.tags().count
                    default: return try repository.latestSemverTag() == nil ? 0 : 1
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.count == 24)
        #expect(Set(results) == [5, 1])
    }

    @Test("GitOID validates its text")
    func objectIDs() {
        #expect(GitOID(hex: String(repeating: "A", count: 40))?.hex == String(repeating: "a", count: 40))
        #expect(GitOID(hex: "abc") == nil)
        #expect(GitOID(hex: String(repeating: "g", count: 40)) == nil)
        #expect(!LibGit2.version.isEmpty)
    }
}
