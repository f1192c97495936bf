import Foundation
import Git
import Testing
import TestSupport
import TestThreads

/// Credentials end to end, against a token-checking smart-HTTP server on 127.0.0.1.
@Suite("GitRepository: HTTP credentials", .enabled(if: GitHTTPServer.isAvailable, "needs python3"), .dedicatedThreads)
struct CredentialTests {
    private struct Server {
        let root: TemporaryDirectory
        let http: GitHTTPServer
        let first: String
        var url: String { http.url(for: "remote.git") }

        init(token: String) throws {
            root = try TemporaryDirectory(prefix: "slipway-http-root")
            try GitFixture.run(["init", "--quiet", "--bare", "--initial-branch=main", root.path + "/remote.git"], in: root.path)
            let work = try GitFixture()
            first = try work.commit("first", files: ["a.txt": "a\n"])
            try work.git("tag", "-a", "v1.0.0", "-m", "one")
            try work.git("push", "--quiet", root.path + "/remote.git", "main", "--tags")
            http = try GitHTTPServer(serving: root.path, token: token)
        }
    }

    @Test("a token is sent as x-access-token and lets ls-remote through")
    func tokenAccepted() throws {
        let server = try Server(token: "right-token")
        let tags = try GitRepository.listRemoteTags(url: server.url, credentials: .token("right-token"))
        #expect(tags == ["v1.0.0": try #require(GitOID(hex: server.first))])
    }

    @Test("a wrong token or none is an authentication error, asked once, never a loop")
    func tokenRefused() throws {
        let server = try Server(token: "right-token")
        let wrong = #expect(throws: GitError.self) {
            try GitRepository.listRemoteTags(url: server.url, credentials: .token("wrong-token"))
        }
        guard case let .authenticationFailed(url, libgit2) = wrong else {
            Issue.record("expected .authenticationFailed, got \(String(describing: wrong))")
            return
        }
        #expect(url == server.url)
        #expect(libgit2.contains("x-access-token"))
        #expect(wrong?.localizedDescription.contains("wrong-token") == false)

        let none = #expect(throws: GitError.self) { try GitRepository.listRemoteTags(url: server.url) }
        guard case .authenticationFailed = none else {
            Issue.record("expected .authenticationFailed, got \(String(describing: none))")
            return
        }
    }

    @Test("push over HTTP with a token updates the remote; clone with it works too")
    func pushWithToken() throws {
        let server = try Server(token: "push-token")
        let directory = try TemporaryDirectory()
        let clone = try GitRepository.clone(url: server.url, to: directory.path + "/clone", credentials: .token("push-token"))
        let workdir = try #require(clone.workingDirectory)
        try Data("b\n".utf8).write(to: URL(fileURLWithPath: workdir + "/b.txt"))
        let commit = try clone.commit(message: "second", paths: ["b.txt"], signature: testSignature)
        try clone.createAnnotatedTag(name: "v1.1.0", message: "Release 1.1.0", signature: testSignature)
        let updated = try clone.push(
            refspecs: ["refs/heads/main:refs/heads/main", "refs/tags/v1.1.0:refs/tags/v1.1.0"],
            credentials: .token("push-token"))
        #expect(updated == ["refs/heads/main", "refs/tags/v1.1.0"])
        let remote = server.root.path + "/remote.git"
        #expect(try GitFixture.run(["rev-parse", "main", "v1.1.0^{commit}"], in: remote) == "\(commit.hex)\n\(commit.hex)")

        let refused = #expect(throws: GitError.self) {
            try clone.push(refspecs: ["refs/heads/main"], credentials: .token("nope"))
        }
        guard case .authenticationFailed = refused else {
            Issue.record("expected .authenticationFailed, got \(String(describing: refused))")
            return
        }
    }
}
