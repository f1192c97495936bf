import Foundation
import Testing
import TestSupport
import TestThreads

/// Slipway's own release lane, `lanes/release.yml`, run by the built binary on a clone of this
/// repository's committed HEAD (as CI has it) with a local bare repository as origin and a
/// throwaway key: planned with `--dry-run`, and run for real. The published files are checked as
/// someone downloading the release would: `signify-openbsd -V`, `sha256sum -c`, and the binary
/// from the archive prints the new version.
@Suite(.dedicatedThreads) struct ReleaseLaneTests {
    /// The steps of lanes/release.yml, by the names the console shows.
    static let steps = ["git.ensure-clean", "version", "changelog.update", "build", "build-merge-driver", "archive", "checksums", "sign",
                        "git.commit", "git.tag", "upload", "git.push"]

    @Test func dryRunPlansEveryStepAndChangesNothing() throws {
        let clone = try ReleaseClone()
        let tree = try clone.treeSnapshot()
        let status = try clone.git("status", "--porcelain", "--ignored")
        let head = try clone.git("rev-parse", "HEAD")
        let tags = try clone.git("tag", "--list")
        let remoteRefs = try GitFixture.run(["for-each-ref"], in: clone.remote)

        let result = try clone.release(dryRun: true)
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        let output = result.standardOutput
        #expect(output.contains("▸ lane 'release' (lanes/release.yml) — dry run, nothing will be changed"))
        for (index, name) in Self.steps.enumerated() {
            #expect(output.contains("▸ [\(index + 1)/\(Self.steps.count)] \(name)"), "step \(name) is not announced:\n\(output)")
            #expect(output.contains("✓ \(name) planned"), "step \(name) is not planned:\n\(output)")
        }
        #expect(output.contains("would other: version \(clone.previous) → \(clone.next) (strategy auto, 1 commit(s) since v\(clone.previous))"))
        let source = try String(contentsOfFile: clone.path + "/Sources/SlipwayCLI/SlipwayVersion.swift", encoding: .utf8)
        let line = try #require(source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("current = \"") }) + 1
        #expect(output.contains("would write: Sources/SlipwayCLI/SlipwayVersion.swift:\(line) \(clone.previous) -> \(clone.next)"))
        #expect(output.contains("would other: changelog style: unreleased (set with the step's option 'style')"), "\(output)")
        #expect(output.contains("### Added\n          - \(clone.feature)\n"), "the changelog plan moves the note written under Unreleased:\n\(output)")
        #expect(output.contains("would process: swift build -c release --package-path \(clone.path) --product slipway"))
        #expect(output.contains("would write: upload <steps.archive.outputs.path>, <steps.archive.outputs.path>.sig, "
            + "<steps.checksums.outputs.path>, <steps.checksums.outputs.path>.sig to \(clone.published)"))
        #expect(output.contains("would network: push refs/heads/main:refs/heads/main"))
        #expect(output.contains("✓ lane 'release' planned"))
        #expect(!output.contains(clone.secretKeyLine) && !result.standardError.contains(clone.secretKeyLine))

        #expect(try clone.treeSnapshot() == tree, "the dry run changed files (no journal, no dist/, no edits)")
        #expect(try clone.git("status", "--porcelain", "--ignored") == status)
        #expect(try clone.git("rev-parse", "HEAD") == head)
        #expect(try clone.git("tag", "--list") == tags)
        #expect(try GitFixture.run(["for-each-ref"], in: clone.remote) == remoteRefs)
        #expect(!FileManager.default.fileExists(atPath: clone.published))
    }

    /// The whole lane, run for real. The clone's package is reduced to the `slipway` product built
    /// from the real SlipwayVersion.swift (see `ReleaseClone.reduceThePackage`): the lane file, the
    /// repository's history, CHANGELOG.md and README.md are Slipway's, and the released binary is
    /// still compiled by the lane from the bumped version file, but in seconds rather than the
    /// 11 minutes of CPU a release build of all of Slipway takes (which made the outcome depend on
    /// the machine's load). `SLIPWAY_TEST_FULL_SELF_RELEASE=1` builds the whole package instead
    /// (before cutting a release; the quickstart builds it in release mode too).
    @Test(.enabled(if: ReleaseChecks.hasSignify, "\(ReleaseChecks.noSignify)"), .timeLimit(.minutes(30)))
    func releasesSlipwayEndToEnd() throws {
        let full = ProcessInfo.processInfo.environment["SLIPWAY_TEST_FULL_SELF_RELEASE"] == "1"
        let clone = try ReleaseClone(reducedPackage: !full)
        let result = try clone.release(dryRun: false)
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        try #require(result.status == 0)
        #expect(result.standardOutput.contains("✓ lane 'release' succeeded"))
        #expect(result.standardOutput.contains("| 12 | git.push           | git.push         | succeeded |"))
        #expect(!result.standardOutput.contains(clone.secretKeyLine) && !result.standardError.contains(clone.secretKeyLine))

        // The release commit, tagged, in the clone and in origin.
        let tag = "v\(clone.next)"
        let head = try clone.git("rev-parse", "HEAD")
        #expect(try clone.git("log", "-1", "--format=%s") == "chore(release): \(clone.next)")
        #expect(try clone.git("rev-parse", "HEAD~1") == clone.featureCommit)
        #expect(try clone.git("cat-file", "-t", tag) == "tag", "an annotated tag")
        #expect(try clone.git("rev-parse", "\(tag)^{commit}") == head)
        #expect(try GitFixture.run(["rev-parse", "\(tag)^{commit}"], in: clone.remote) == head)
        #expect(try GitFixture.run(["rev-parse", "refs/heads/main"], in: clone.remote) == head)
        #expect(try clone.git("status", "--porcelain") == "", "the release commit holds every change")

        // The version constant and the changelog, as committed.
        let version = try clone.git("show", "HEAD:Sources/SlipwayCLI/SlipwayVersion.swift")
        #expect(version.contains("public static let current = \"\(clone.next)\""))
        let changelog = try clone.git("show", "HEAD:CHANGELOG.md")
        let section = try #require(ReleaseChecks.section(clone.next, underUnreleasedIn: changelog), "\(changelog.prefix(1500))")
        #expect(section.contains("### Added\n- \(clone.feature)\n"), "the note written under Unreleased is the section:\n\(section)")
        #expect(changelog.contains("## [Unreleased]\n\n## [\(clone.next)] - "), "Unreleased is left empty")

        // The published files: what a user downloads, checked as a user would.
        let archive = "slipway-\(clone.next)-linux.tar.gz"
        #expect(try FileManager.default.contentsOfDirectory(atPath: clone.published).sorted()
            == ["SHA256SUMS", "SHA256SUMS.sig", archive, archive + ".sig"])
        for file in [archive, "SHA256SUMS"] {
            let verified = try ReleaseChecks.verifySignature(of: file, publicKey: clone.publicKey, in: clone.published)
            #expect(verified.status == 0 && verified.standardOutput == "Signature Verified\n", "\(file): \(verified.standardError)")
        }
        let sums = try ReleaseChecks.checkSums(in: clone.published)
        #expect(sums.status == 0 && sums.standardOutput == "\(archive): OK\n", "\(sums.standardError)")

        let unpacked = try TemporaryDirectory(prefix: "slipway-self-release-unpacked")
        let untar = try CommandResult.run("/usr/bin/env", ["tar", "-xzf", clone.published + "/" + archive, "-C", unpacked.path])
        #expect(untar.status == 0, "\(untar.standardError)")
        let folder = unpacked.path + "/slipway-\(clone.next)"
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["CHANGELOG.md", "README.md", "slipway", "slipway-merge-driver"])
        #expect(try String(contentsOfFile: folder + "/README.md", encoding: .utf8).hasSuffix(clone.readmeLine))
        let released = try CommandResult.run(folder + "/slipway", ["--version"])
        #expect(released.standardOutput == clone.next + "\n", "the binary was built with the bumped version constant")
        #if os(Linux)
        let libraries = try CommandResult.run("/usr/bin/env", ["ldd", folder + "/slipway"])
        #expect(!libraries.standardOutput.contains("libswiftCore"), "the Swift runtime is linked in:\n\(libraries.standardOutput)")
        #endif
    }
}

/// A clone of this repository's committed HEAD (found from this package's sources, so the test
/// runs on a fresh CI checkout too): branch `main`, no tags, `origin` a bare repository beside
/// it holding `main`. HEAD is tagged with the version in SlipwayVersion.swift and followed by
/// one `feat:` commit, so the release lane has a minor release to make; a throwaway unencrypted
/// key made by `slipway keys generate` lies outside the clone.
final class ReleaseClone {
    let folder: TemporaryDirectory
    let previous: String
    let next: String
    let feature = "a release made by the end-to-end test"
    let readmeLine = "\nReleased by Slipway's end-to-end release test.\n"
    let featureCommit: String
    private let secretKey: String

    var path: String { folder.path + "/clone" }
    var remote: String { folder.path + "/origin.git" }
    var published: String { folder.path + "/published" }
    var publicKey: String { folder.path + "/keys/throwaway.pub" }
    /// The secret key's base64 line, which must never be printed.
    var secretKeyLine: String { secretKey.split(separator: "\n").last.map(String.init) ?? secretKey }

    /// - Parameter reducedPackage: replace Package.swift by `reducedManifest` in the commit the
    ///   previous version is tagged on (the lane then builds two small files, not Slipway).
    init(reducedPackage: Bool = false) throws {
        folder = try TemporaryDirectory(prefix: "slipway-self-release")
        try GitFixture.run(["clone", "--quiet", "--no-tags", "--no-hardlinks", Corpus.repositoryRoot, "clone"], in: folder.path)
        try GitFixture.run(["init", "--quiet", "--bare", "origin.git"], in: folder.path)
        let path = folder.path + "/clone"
        let git = { (arguments: [String]) throws -> String in try GitFixture.run(arguments, in: path) }
        // Package.resolved is not committed (it is ignored): the clone builds with the versions
        // of the dependencies that this build resolved, from SwiftPM's cache.
        let resolved = Corpus.repositoryRoot + "/Package.resolved"
        if !reducedPackage, FileManager.default.fileExists(atPath: resolved) {
            try FileManager.default.copyItem(atPath: resolved, toPath: path + "/Package.resolved")
        }
        _ = try git(["checkout", "--quiet", "-B", "main"])
        // slipway's git.commit and git.tag (libgit2) read the identity from the repository's config.
        _ = try git(["config", "user.name", GitFixture.userName])
        _ = try git(["config", "user.email", GitFixture.userEmail])
        _ = try git(["remote", "set-url", "origin", folder.path + "/origin.git"])
        if reducedPackage {
            try Data(Self.reducedManifest.utf8).write(to: URL(fileURLWithPath: path + "/Package.swift"))
            try FileManager.default.createDirectory(atPath: path + "/Sources/slipway-release-test", withIntermediateDirectories: true)
            try Data(Self.reducedMain.utf8).write(to: URL(fileURLWithPath: path + "/Sources/slipway-release-test/main.swift"))
            try FileManager.default.createDirectory(atPath: path + "/Sources/slipway-release-test-driver", withIntermediateDirectories: true)
            try Data(Self.reducedDriverMain.utf8).write(to: URL(fileURLWithPath: path + "/Sources/slipway-release-test-driver/main.swift"))
            _ = try git(["add", "-A"])
            _ = try git(["commit", "--quiet", "-m", "test: build only the version file (the end-to-end release test's package)"])
        }
        _ = try git(["push", "--quiet", "origin", "main"])

        let source = try String(contentsOfFile: path + "/Sources/SlipwayCLI/SlipwayVersion.swift", encoding: .utf8)
        let current = try #require(source.firstMatch(of: /current = "(\d+)\.(\d+)\.(\d+)"/), "no version constant in SlipwayVersion.swift")
        previous = "\(current.1).\(current.2).\(current.3)"
        next = "\(current.1).\(Int(current.2)! + 1).0"
        _ = try git(["tag", "-a", "v\(previous)", "-m", "Slipway \(previous)"])
        let readme = try String(contentsOfFile: path + "/README.md", encoding: .utf8)
        try Data((readme + readmeLine).utf8).write(to: URL(fileURLWithPath: path + "/README.md"))
        // The project's changelog is written by hand: the feature's note goes under Unreleased.
        let changelog = try String(contentsOfFile: path + "/CHANGELOG.md", encoding: .utf8)
        let unreleased = try #require(changelog.range(of: "## [Unreleased]\n"), "CHANGELOG.md has no Unreleased section")
        try Data((changelog[..<unreleased.upperBound] + "\n### Added\n- \(feature)\n" + changelog[unreleased.upperBound...]).utf8)
            .write(to: URL(fileURLWithPath: path + "/CHANGELOG.md"))
        _ = try git(["commit", "--quiet", "-am", "feat: \(feature)"])
        featureCommit = try git(["rev-parse", "HEAD"])

        let keys = try CommandResult.run(Binaries.slipway, ["keys", "generate", "--no-passphrase", "--output", "keys", "--name", "throwaway"],
                                         in: folder.path)
        try #require(keys.status == 0, "slipway keys generate: \(keys.standardError)")
        secretKey = try String(contentsOfFile: folder.path + "/keys/throwaway.sec", encoding: .utf8)
    }

    /// The end-to-end test's manifest: a `slipway` executable made of Slipway's own
    /// SlipwayVersion.swift (the file the lane bumps) and a `main.swift` that answers `--version`
    /// from it, so that the released binary shows which version file it was built from.
    static let reducedManifest = """
        // swift-tools-version:6.0
        // Slipway's end-to-end release test: only the version file and a main that prints it.
        import PackageDescription

        let package = Package(
            name: "Slipway",
            targets: [
                .executableTarget(name: "slipway", path: "Sources",
                                  sources: ["SlipwayCLI/SlipwayVersion.swift", "slipway-release-test/main.swift"]),
                .executableTarget(name: "slipway-merge-driver", path: "Sources/slipway-release-test-driver"),
            ]
        )

        """
    /// The second product the lane builds and archives.
    static let reducedDriverMain = """
        print("slipway-merge-driver (the end-to-end release test's)")

        """
    static let reducedMain = """
        if CommandLine.arguments.dropFirst().first == "--version" { print(SlipwayVersion.current) }

        """

    @discardableResult
    func git(_ arguments: String...) throws -> String { try GitFixture.run(arguments, in: path) }

    /// `slipway run release` with pushing on and the upload folder beside the clone; the key is
    /// the SLIPWAY_SIGNING_KEY secret, from the environment.
    func release(dryRun: Bool) throws -> CommandResult {
        try CommandResult.run(
            Binaries.slipway,
            ["run", "release", "--input", "upload-directory=\(published)", "--input", "push=true", "--no-color"] + (dryRun ? ["--dry-run"] : []),
            in: path,
            environment: ["SLIPWAY_SIGNING_KEY": secretKey, "SLIPWAY_SIGNING_PASSPHRASE": nil, "SLIPWAY_PUSH_TOKEN": nil,
                          "GITHUB_ACTIONS": nil, "NO_COLOR": "1"])
    }

    /// Every file of the working tree (ignored ones too, `.git` aside) with its contents and mode.
    func treeSnapshot() throws -> [String: String] {
        try Snapshot.of(path).filter { $0.key != ".git" && !$0.key.hasPrefix(".git/") }
    }
}

/// Checks of published release files with the tools a user has.
enum ReleaseChecks {
    static var hasSignify: Bool { PythonScriptServer.isInstalled("signify-openbsd") }
    static let noSignify = "signify-openbsd is not installed (scripts/setup.sh installs it); it verifies the release's signatures"

    /// `signify-openbsd -V -p KEY -m FILE -x FILE.sig` in `directory`.
    static func verifySignature(of file: String, publicKey: String, in directory: String) throws -> CommandResult {
        try CommandResult.run("/usr/bin/env", ["signify-openbsd", "-V", "-p", publicKey, "-m", file, "-x", file + ".sig"], in: directory)
    }

    /// The section of `version` in a Keep a Changelog text, when it comes right after
    /// `## [Unreleased]` (nil otherwise).
    static func section(_ version: String, underUnreleasedIn changelog: String) -> String? {
        guard let unreleased = changelog.range(of: "## [Unreleased]\n") else { return nil }
        let rest = changelog[unreleased.upperBound...]
        guard let heading = rest.range(of: "## [\(version)] - "), rest[..<heading.lowerBound].allSatisfy(\.isWhitespace) else { return nil }
        return rest[heading.lowerBound...].components(separatedBy: "\n## [").first
    }

    /// `sha256sum -c SHA256SUMS` in `directory` (`shasum -a 256 -c` where coreutils is absent).
    static func checkSums(in directory: String) throws -> CommandResult {
        let command = PythonScriptServer.isInstalled("sha256sum") ? ["sha256sum", "-c", "SHA256SUMS"] : ["shasum", "-a", "256", "-c", "SHA256SUMS"]
        return try CommandResult.run("/usr/bin/env", command, in: directory)
    }
}
