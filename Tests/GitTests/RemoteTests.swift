import Foundation
import Git
import Testing
import TestSupport
import TestThreads

/// Remote operations against local bare repositories (`file://`) and, where a server-side hook
/// must run, a `git daemon` on 127.0.0.1. Nothing here leaves the machine.
@Suite("GitRepository: remotes", .dedicatedThreads)
struct RemoteTests {
    /// A bare "server" repository with history and tags, filled from a work repository.
    private struct Server {
        let bare: GitFixture
        let work: GitFixture
        let first: String
        let second: String
        var url: String { "file://" + bare.path }

        init() throws {
            bare = try GitFixture(prefix: "slipway-server", bare: true)
            work = try GitFixture(prefix: "slipway-work")
            first = try work.commit("first", files: ["README.md": "one\n"])
            try work.git("tag", "v1.0.0")
            second = try work.commit("second", files: ["README.md": "two\n"])
            try work.git("tag", "-a", "v1.1.0", "-m", "Release 1.1.0")
            try work.git("tag", "-a", "v1.1.0-docs", "-m", "docs", first)
            try work.git("branch", "release/1.x", first)
            try work.git("push", "--quiet", bare.path, "main", "release/1.x", "--tags")
        }
    }

    @Test("listRemoteTags over file:// gives commit ids, peeling annotated tags, like git ls-remote")
    func listRemoteTags() throws {
        let server = try Server()
        let tags = try GitRepository.listRemoteTags(url: server.url)
        #expect(tags == [
            "v1.0.0": try #require(GitOID(hex: server.first)),
            "v1.1.0": try #require(GitOID(hex: server.second)),
            "v1.1.0-docs": try #require(GitOID(hex: server.first)),
        ])
        let peeled = try server.work.git("ls-remote", server.url, "refs/tags/v1.1.0^{}")
        #expect(peeled.hasPrefix(server.second))
    }

    @Test("listRemoteTags on a path that is not a repository names the URL")
    func listRemoteTagsFailure() throws {
        let directory = try TemporaryDirectory()
        let url = "file://" + directory.path + "/missing.git"
        let error = #expect(throws: GitError.self) { try GitRepository.listRemoteTags(url: url) }
        guard case .remoteFailed(operation: "read the tags of", url: url, libgit2: _) = error else {
            Issue.record("expected .remoteFailed, got \(String(describing: error))")
            return
        }
    }

    @Test("clone checks out the default branch, a branch, or a tag (detached)")
    func clone() throws {
        let server = try Server()
        let destinations = try TemporaryDirectory(prefix: "slipway-clones")

        let plain = try GitRepository.clone(url: server.url, to: destinations.path + "/plain")
        #expect(try plain.head().branch == "main")
        #expect(try plain.head().commit?.hex == server.second)
        #expect(try plain.remoteURL() == server.url)
        #expect(try String(contentsOfFile: destinations.path + "/plain/README.md", encoding: .utf8) == "two\n")
        #expect(try plain.isClean())

        let branch = try GitRepository.clone(url: server.url, to: destinations.path + "/branch", checkout: "release/1.x")
        #expect(try branch.head().branch == "release/1.x")
        #expect(try branch.head().commit?.hex == server.first)
        #expect(try branch.isClean())

        let tag = try GitRepository.clone(url: server.url, to: destinations.path + "/tag", checkout: "v1.0.0")
        #expect(try tag.head().isDetached)
        #expect(try tag.head().commit?.hex == server.first)
        #expect(try String(contentsOfFile: destinations.path + "/tag/README.md", encoding: .utf8) == "one\n")
        #expect(try tag.isClean())
    }

    @Test("clone at an unknown ref fails naming it and leaves no directory behind")
    func cloneUnknownReference() throws {
        let server = try Server()
        let destinations = try TemporaryDirectory(prefix: "slipway-clones")
        let target = destinations.path + "/clone"
        let error = #expect(throws: GitError.self) {
            try GitRepository.clone(url: server.url, to: target, checkout: "v7.0.0")
        }
        guard case .revisionNotFound(revision: "v7.0.0", repository: _, libgit2: _) = error else {
            Issue.record("expected .revisionNotFound, got \(String(describing: error))")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("push a branch and a tag to a bare remote")
    func pushSucceeds() throws {
        let server = try Server()
        let destination = try TemporaryDirectory(prefix: "slipway-clone")
        let local = try GitRepository.clone(url: server.url, to: destination.path + "/clone")
        let workdir = try #require(local.workingDirectory)
        try Data("three\n".utf8).write(to: URL(fileURLWithPath: workdir + "/README.md"))
        let commit = try local.commit(message: "third", paths: ["README.md"], signature: testSignature)
        try local.createAnnotatedTag(name: "v1.2.0", message: "Release 1.2.0", signature: testSignature)

        let updated = try local.push(refspecs: ["refs/heads/main:refs/heads/main", "refs/tags/v1.2.0:refs/tags/v1.2.0"])
        #expect(updated == ["refs/heads/main", "refs/tags/v1.2.0"])
        #expect(try server.bare.git("rev-parse", "main") == commit.hex)
        #expect(try server.bare.git("rev-parse", "v1.2.0^{commit}") == commit.hex)
        #expect(try server.bare.git("cat-file", "-t", "v1.2.0") == "tag")
    }

    @Test("a server hook that refuses one ref while the push call succeeds is an error naming the ref")
    func pushRejectedByHook() throws {
        let root = try TemporaryDirectory(prefix: "slipway-daemon-root")
        try GitFixture.run(["init", "--quiet", "--bare", "--initial-branch=main", root.path + "/remote.git"], in: root.path)
        try Data("""
            #!/bin/sh
            case "$1" in
              refs/tags/v9*) echo "tags matching v9* are reserved" >&2; exit 1 ;;
            esac
            exit 0

            """.utf8).write(to: URL(fileURLWithPath: root.path + "/remote.git/hooks/update"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.path + "/remote.git/hooks/update")
        let daemon = try GitDaemon(serving: root.path)
        let url = daemon.url(for: "remote.git")

        let work = try GitFixture()
        try work.commit("first", files: ["a.txt": "a\n"])
        try work.git("tag", "v1.0.0")
        try work.git("tag", "v9.0.0")
        try work.git("remote", "add", "origin", url)
        let repository = try work.open()

        let error = #expect(throws: GitError.self) {
            try repository.push(refspecs: [
                "refs/heads/main:refs/heads/main", "refs/tags/v1.0.0:refs/tags/v1.0.0", "refs/tags/v9.0.0:refs/tags/v9.0.0",
            ])
        }
        guard case let .pushRejected(remote, rejections, updated, serverOutput) = error else {
            Issue.record("expected .pushRejected, got \(String(describing: error))")
            return
        }
        #expect(remote == "origin")
        #expect(rejections == [GitPushRejection(reference: "refs/tags/v9.0.0", message: "hook declined")])
        #expect(updated == ["refs/heads/main", "refs/tags/v1.0.0"])
        #expect(serverOutput.contains("tags matching v9* are reserved"))
        let message = error?.localizedDescription ?? ""
        #expect(message.hasPrefix("Remote 'origin' rejected 'refs/tags/v9.0.0' (hook declined)."))
        #expect(message.contains("tags matching v9* are reserved"))
        // The server really has the accepted refs and not the refused one.
        let serverTags = try GitFixture.run(["tag", "-l"], in: root.path + "/remote.git")
        #expect(serverTags == "v1.0.0")
    }

    @Test("a file:// remote that cannot update one ref (a stale lock) is an error naming the ref")
    func pushRejectedLocally() throws {
        let server = try Server()
        try FileManager.default.createDirectory(atPath: server.bare.path + "/refs/tags", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: server.bare.path + "/refs/tags/v2.0.0.lock"))
        try server.work.git("tag", "v2.0.0")
        try server.work.git("tag", "v2.0.1")
        let repository = try server.work.open()
        let error = #expect(throws: GitError.self) {
            try repository.push(remote: server.url, refspecs: ["refs/tags/v2.0.0", "refs/tags/v2.0.1"])
        }
        guard case let .pushRejected(remote, rejections, updated, _) = error else {
            Issue.record("expected .pushRejected, got \(String(describing: error))")
            return
        }
        #expect(remote == server.url)
        #expect(rejections.map(\.reference) == ["refs/tags/v2.0.0"])
        #expect(rejections.first?.message.contains("lock") == true)
        #expect(updated == ["refs/tags/v2.0.1"])
    }

    @Test("a push that is not a fast-forward names the ref and pushes nothing")
    func pushNotFastForward() throws {
        let server = try Server()
        let destination = try TemporaryDirectory(prefix: "slipway-clone")
        let local = try GitRepository.clone(url: server.url, to: destination.path + "/clone")
        let workdir = try #require(local.workingDirectory)
        try server.work.commit("someone else's work", files: ["other.txt": "x\n"])
        try server.work.git("push", "--quiet", server.bare.path, "main")
        let remoteTip = try server.bare.git("rev-parse", "main")
        try Data("mine\n".utf8).write(to: URL(fileURLWithPath: workdir + "/mine.txt"))
        try local.commit(message: "my work", paths: ["mine.txt"], signature: testSignature)

        let error = #expect(throws: GitError.self) { try local.push(refspecs: ["refs/heads/main:refs/heads/main"]) }
        guard case let .pushNotFastForward(remote, references, _) = error else {
            Issue.record("expected .pushNotFastForward, got \(String(describing: error))")
            return
        }
        #expect(remote == "origin")
        #expect(references == ["refs/heads/main"])
        #expect(error?.localizedDescription.contains("git pull --rebase") == true)
        #expect(try server.bare.git("rev-parse", "main") == remoteTip)
    }

    @Test("push to an unknown remote name, and credentials never print their secret")
    func pushErrorsAndCredentials() throws {
        let fixture = try GitFixture()
        try fixture.commit("first")
        let error = #expect(throws: GitError.self) {
            try fixture.open().push(remote: "upstream", refspecs: ["refs/heads/main"], credentials: .token("s3cr3t"))
        }
        #expect(error == .remoteNotFound(name: "upstream", repository: realPath(fixture.path)))
        let credentials = GitCredentials.token("s3cr3t")
        #expect(credentials.username == "x-access-token")
        #expect(!"\(credentials)".contains("s3cr3t"))
    }
}
