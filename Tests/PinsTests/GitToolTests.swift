import Basics
import Foundation
import Git
@testable import Pins
import Testing
import TestSupport
import TestThreads

/// Git tools against real repositories (git CLI to make them, libgit2 to read them) reached by
/// `file://` URLs, and one real `swift build` shared by the suite.
@Suite(.dedicatedThreads) struct GitToolTests {
    func project(url: String, constraint: String) throws -> PinsProject {
        let project = try PinsProject()
        try project.write("Toolfile", "tools:\n  mytool:\n    git: \(url)\n    version: '\(constraint)'\n")
        return project
    }

    @Test(arguments: [
        ("^1.0", "1.1.0"), ("~1.0.0", "1.0.0"), ("^0.9", "0.9.0"), ("*", "1.1.0"),
        ("^1.1.0-beta.1", "1.1.0"), (">=1.1.0-beta.1, <1.1.0", "1.1.0-beta.1"), ("1.1.0-beta.1", "1.1.0-beta.1"),
    ])
    func locksTheHighestTagTheConstraintAccepts(constraint: String, expected: String) async throws {
        let repository = try ToolRepository()
        let project = try project(url: repository.url, constraint: constraint)
        let result = try await ToolLocker(context: project.context()).lock()
        let entry = try #require(result.lockfile.tools["mytool"])
        #expect(entry.version.description == expected)
        #expect(entry.git?.tag == expected)
        #expect(entry.git?.commit.hex == (try repository.commit(of: expected)))
        #expect(entry.executables.isEmpty, "a git tool's checksum is recorded by its first install")
        #expect(result.wrote)
    }

    @Test func unsatisfiableConstraintListsTheAvailableVersions() async throws {
        let repository = try ToolRepository()
        let project = try project(url: repository.url, constraint: "^2.0")
        let error = await thrownText { _ = try await ToolLocker(context: project.context()).lock() }
        #expect(error == """
            No version of 'mytool' satisfies '^2.0'. Available versions: 0.9.0, 1.0.0, 1.1.0-beta.1, 1.1.0. Change the constraint in the Toolfile.
            """)
        #expect(!project.exists("Toolfile.lock"))
    }

    @Test func unreachableRepositoryIsReported() async throws {
        let project = try project(url: "file:///nonexistent/slipway-repo", constraint: "^1.0")
        let error = await thrownText { _ = try await ToolLocker(context: project.context()).lock() }
        #expect(error?.hasPrefix("Could not fetch 'mytool' from 'file:///nonexistent/slipway-repo': Could not read the tags of") == true)
        #expect(!project.exists("Toolfile.lock"))
    }

    @Test func unchangedToolsKeepTheirEntriesUntilUpdated() async throws {
        let repository = try ToolRepository()
        let project = try project(url: repository.url, constraint: "^1.0")
        _ = try await ToolLocker(context: project.context()).lock()
        let first = try project.read("Toolfile.lock")
        try repository.commitAndTag("1.2.0")
        let again = try await ToolLocker(context: project.context()).lock()
        #expect(!again.wrote)
        #expect(again.changes.map(\.kind) == [.kept])
        #expect(try project.read("Toolfile.lock") == first)
        let updated = try await ToolLocker(context: project.context()).lock(update: .tools(["mytool"]))
        #expect(updated.lockfile.tools["mytool"]?.version.description == "1.2.0")
        #expect(updated.changes == [LockChange(tool: "mytool", kind: .updated, from: "1.1.0", to: "1.2.0")])
        let unknown = await thrownText { _ = try await ToolLocker(context: project.context()).lock(update: .tools(["mytol"])) }
        #expect(unknown == "The Toolfile has no tool 'mytol'. Did you mean 'mytool'? (tools: mytool)")
    }

    @Test func buildsForRealAndVerifies() async throws {
        let (project, _) = try await SharedGitBuild.shared.installedProject()
        let lock = try LockfileStore(path: project.path + "/Toolfile.lock", fileSystem: LocalFileSystem()).loadRequired()
        let entry = try #require(lock.tools["mytool"])
        let checksum = try #require(entry.executables[ToolPlatform.current.description], "install records the checksum")
        let report = try await ToolVerifier(context: project.context(online: false)).report()
        #expect(report.isOK, "\(report.tools.map(\.summary))")
        let path = try ToolVerifier(context: project.context(online: false)).executablePath(for: "mytool")
        #expect(path == "\(project.toolsCache)/mytool/1.1.0/\(ToolPlatform.current)/mytool")
        #expect(try LocalToolFiles(fileSystem: LocalFileSystem()).sha256(ofFile: path) == checksum)
        let output = try CommandResult.run(path, [])
        #expect(output.standardOutput == "mytool version 1.1.0\n")
        #expect(try ToolVerifier(context: project.context(online: false)).executableDirectories()
            == ["\(project.toolsCache)/mytool/1.1.0/\(ToolPlatform.current)"])
        // Installing again finds it intact and does nothing.
        let again = try await ToolInstaller(context: project.context()).install()
        #expect(again.tools.map(\.wasPresent) == [true])
        #expect(!again.lockUpdated)
    }

    @Test func aRebuildElsewhereGivesTheSameExecutable() async throws {
        let (project, _) = try await SharedGitBuild.shared.installedProject()
        let before = try project.read("Toolfile.lock")
        try FileManager.default.removeItem(atPath: project.toolsCache + "/mytool")
        let result = try await ToolInstaller(context: project.context()).install()
        #expect(result.tools.map(\.wasPresent) == [false])
        #expect(try project.read("Toolfile.lock") == before, "the rebuild matched the recorded checksum")

        // A checksum recorded by another toolchain: the build is refused, then accepted after
        // `lock --update mytool`, which drops it so that install records this build.
        let platform = ToolPlatform.current.description
        let installed = try LocalToolFiles(fileSystem: LocalFileSystem()).sha256(ofFile: "\(project.toolsCache)/mytool/1.1.0/\(platform)/mytool")
        let other = String(repeating: "0", count: 64)
        try project.write("Toolfile.lock", before.replacingOccurrences(of: installed, with: other))
        try FileManager.default.removeItem(atPath: project.toolsCache + "/mytool")
        let refused = await thrownText { _ = try await ToolInstaller(context: project.context()).install() }
        #expect(refused == """
            Building 'mytool' from its locked commit gave an executable with sha256 \(installed) on \(platform), but \
            Toolfile.lock recorded \(other); nothing was installed. Builds from source match only with the same Swift \
            toolchain: use the toolchain the checksum was recorded with, or run 'slipway tools lock --update mytool' and \
            'slipway tools install' to record this build.
            """)
        #expect(!FileManager.default.fileExists(atPath: project.toolsCache + "/mytool"))
        let relocked = try await ToolLocker(context: project.context()).lock(update: .tools(["mytool"]))
        #expect(relocked.lockfile.tools["mytool"]?.executables == [:])
        let recorded = try await ToolInstaller(context: project.context()).install()
        #expect(recorded.lockUpdated)
        #expect(try project.read("Toolfile.lock") == before)
    }

    @Test func aMovedTagIsDetectedAndNothingIsInstalled() async throws {
        let repository = try ToolRepository()
        let project = try project(url: repository.url, constraint: "^1.0")
        _ = try await ToolLocker(context: project.context()).lock()
        let locked = try repository.commit(of: "1.1.0")
        try repository.commitAndTag("1.1.0", printing: "1.1.0-evil", force: true)
        let moved = try repository.commit(of: "1.1.0")
        let lockBefore = try project.read("Toolfile.lock")
        let error = await thrownText { _ = try await ToolInstaller(context: project.context()).install() }
        #expect(error == """
            Tag '1.1.0' of 'mytool' (\(repository.url)) now points at commit \(moved), but Toolfile.lock pinned it to \
            commit \(locked). The tag was moved after locking; nothing was installed. Ask the tool's maintainers why; if \
            the new commit is trusted, run 'slipway tools lock --update mytool'.
            """)
        #expect(!FileManager.default.fileExists(atPath: project.toolsCache + "/mytool"))
        #expect(project.temporaryLeftovers().isEmpty)
        #expect(try project.read("Toolfile.lock") == lockBefore)
        let report = try await ToolVerifier(context: project.context(online: false)).report()
        #expect(report.tools.first?.failures.map(\.check) == [.installed])
    }

    @Test func outdatedShowsWantedAndLatest() async throws {
        let repository = try ToolRepository()
        let project = try project(url: repository.url, constraint: "~1.0.0")
        _ = try await ToolLocker(context: project.context()).lock()
        try repository.commitAndTag("1.0.1")
        try repository.commitAndTag("2.0.0-rc.1")
        let rows = try await OutdatedChecker(context: project.context(online: false)).check()
        #expect(rows == [OutdatedTool(name: "mytool", source: .git, locked: "1.0.0", wanted: "1.0.1", latest: "1.1.0", note: nil)])
        #expect(rows.first?.isOutdated == true)
    }
}
