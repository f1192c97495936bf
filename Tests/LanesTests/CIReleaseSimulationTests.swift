import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// A release lane (version, changelog, a Linux and a "macOS" build in parallel, archive, checksums,
/// ed25519 signatures, release commit, annotated tag, upload to a folder, and a finally step)
/// exported with `slipway ci export --to github-actions` and run by GitHubActionsSimulator
/// (SIMULATION — not GitHub): every job in a fresh clone of its own, files and outputs handed over
/// through the stand-in artifact store, git commits and tags through the hand-over packs. The
/// result must equal one machine's `slipway run`, and the failing job is re-run alone.
@Suite("a release lane across simulated runners (not GitHub)", .dedicatedThreads)
struct CIReleaseSimulationTests {
    static let lane = """
        description: Release across runners
        inputs:
          strategy: { default: auto }
        secrets:
          SIGNING_KEY: { description: the ed25519 key }
        ci-jobs: per-step
        steps:
          - git.ensure-clean
          - version.bump: { strategy: "${{ inputs.strategy }}", version-file: VERSION }
            id: version
            artifacts: [VERSION]
          - changelog.update: { version: "${{ steps.version.outputs.version }}" }
            id: changelog
            artifacts: [CHANGELOG.md]
          - parallel:
              - run: { command: 'mkdir -p dist/linux && printf "app %s for linux\\n" "$(cat VERSION)" > dist/linux/app' }
                id: build-linux
                runs-on: linux
                artifacts: [dist/linux/app]
              - run: { command: 'mkdir -p dist/mac && printf "app %s for macos\\n" "$(cat VERSION)" > dist/mac/app' }
                id: build-mac
                runs-on: macos
                artifacts: [dist/mac/app]
          - archive: { files: [dist/linux/app, dist/mac/app], base: dist, output: "dist/app-${{ steps.version.outputs.version }}.tar.gz", mtime: 0 }
            id: archive
            artifacts: ["dist/*.tar.gz"]
          - checksums: { files: ["${{ steps.archive.outputs.path }}"], output: dist/SHA256SUMS }
            id: checksums
            artifacts: [dist/SHA256SUMS]
          - sign: { files: ["${{ steps.archive.outputs.path }}", "${{ steps.checksums.outputs.path }}"], key: "${{ secrets.SIGNING_KEY }}" }
            id: sign
            artifacts: ["dist/*.sig"]
          - git.commit: { message: "chore(release): ${{ steps.version.outputs.version }}", paths: [CHANGELOG.md, VERSION] }
            id: commit
          - git.tag: { name: "${{ steps.version.outputs.tag }}", message: "App ${{ steps.version.outputs.version }}" }
            id: tag
          - upload:
              to: directory
              directory: published
              files: ["${{ steps.archive.outputs.path }}", "${{ steps.archive.outputs.path }}.sig", "${{ steps.checksums.outputs.path }}", "${{ steps.checksums.outputs.path }}.sig"]
            id: upload
            artifacts: ["published/*"]
        finally:
          - run: { command: 'echo "release finished: ${{ steps.version.outputs.version }}" > finished.txt' }
            id: report
            artifacts: [finished.txt]
        """

    static var environment: [String: String] { CIExportSimulationTests.environment }

    /// A project whose last release is v1.0.0, with one `feat:` commit since.
    static func origin() throws -> GitFixture {
        let origin = try GitFixture(prefix: "slipway-ci-release-origin")
        try origin.commit("chore: first", files: [
            "lanes/release.yml": Self.lane, "VERSION": "1.0.0\n", ".gitignore": ".slipway/\ndist/\npublished/\nfinished.txt\n",
            "CHANGELOG.md": "# Changelog\n\n## [Unreleased]\n\n## [1.0.0] - 2026-01-01\n\n### Added\n- The app.\n",
        ])
        try origin.git("tag", "-a", "v1.0.0", "-m", "App 1.0.0")
        try origin.commit("feat: a faster start", files: ["README.md": "app\n"])
        return origin
    }

    @Test(.enabled(if: ReleaseSimulationChecks.hasSignify, "signify-openbsd is not installed (scripts/setup.sh installs it)"))
    func theExportedReleaseEqualsOneMachineAndAFailedJobIsReRunAlone() async throws {
        let origin = try Self.origin()
        let keys = try TemporaryDirectory(prefix: "slipway-ci-release-keys")
        let made = try CommandResult.run(Binaries.slipway, ["keys", "generate", "--no-passphrase", "--output", keys.path, "--name", "ci"],
                                         in: keys.path)
        try #require(made.status == 0, "\(made.standardError)")
        let secretKey = try String(contentsOfFile: keys.path + "/ci.sec", encoding: .utf8)
        let keyLine = String(secretKey.split(separator: "\n").last ?? "?")

        let export = try CommandResult.run(Binaries.slipway, ["ci", "export", "release", "--to", "github-actions", "--slipway-on-path"], in: origin.path)
        try #require(export.status == 0, "\(export.standardError)")
        #expect(export.standardOutput.contains(keyLine) == false)

        // First run without the key: the sign job fails part-way; everything after it is skipped,
        // except the finally job.
        let simulator = try GitHubActionsSimulator(workflow: export.standardOutput, origin: origin.path, environment: Self.environment)
        let first = try await simulator.run(inputs: ["strategy": "auto"], secrets: [:])
        #expect(first["sign"]?.status == .failed, "\(first["sign"]?.log ?? "")")
        for job in ["git-ensure-clean", "version", "changelog", "build-linux", "build-mac", "archive", "checksums"] {
            #expect(first[job]?.status == .succeeded, "\(job): \(first[job]?.log ?? "missing")")
        }
        for job in ["commit", "tag", "upload"] { #expect(first[job]?.status == .skipped, "\(job)") }
        #expect(first["finally"]?.status == .succeeded, "\(first["finally"]?.log ?? "")")

        // The key is added; "re-run failed jobs" runs sign alone and then the jobs after it.
        let rerun = try await simulator.rerunFailedJobs(secrets: ["SIGNING_KEY": secretKey])
        #expect(rerun.succeeded, "\(rerun.statuses)")
        #expect(rerun["sign"]?.attempt == 2)
        #expect(rerun["version"]?.attempt == 1, "succeeded jobs are not run again")
        let tagged = try #require(rerun["tag"]?.workspace)
        let uploaded = try #require(rerun["upload"]?.workspace)
        #expect((rerun["sign"]?.log ?? "").contains(keyLine) == false)

        // One machine, same commit, same key.
        let single = try GitFixture(prefix: "slipway-ci-release-single", initialize: false)
        try GitFixture.run(["clone", "--quiet", origin.path, single.path], in: origin.path)
        let run = try CommandResult.run(Binaries.slipway, ["run", "release"], in: single.path, environment: ["SIGNING_KEY": secretKey])
        try #require(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")

        try ReleaseSimulationChecks.expectSameRelease(runners: (tagged: tagged, uploaded: uploaded), single: single.path,
                                                      publicKey: keys.path + "/ci.pub")
    }
}

enum ReleaseSimulationChecks {
    static var hasSignify: Bool { PythonScriptServer.isInstalled("signify-openbsd") }

    static func git(_ arguments: [String], in directory: String) throws -> String {
        try GitFixture.run(arguments, in: directory)
    }

    /// The tag (name, message, target tree and parent), the committed changelog and version, and
    /// the published files (names, bytes, signatures verified) are the same on both sides.
    static func expectSameRelease(runners: (tagged: String, uploaded: String), single: String, publicKey: String) throws {
        #expect(try git(["tag", "--list", "v1.1.0"], in: runners.tagged) == "v1.1.0")
        for spec in ["v1.1.0^{tree}", "v1.1.0^{commit}^1", "v1.1.0^{commit}^{tree}"] {
            #expect(try git(["rev-parse", spec], in: runners.tagged) == (try git(["rev-parse", spec], in: single)), "\(spec)")
        }
        #expect(try git(["cat-file", "-t", "v1.1.0"], in: runners.tagged) == "tag")
        #expect(try git(["log", "-1", "--format=%s", "v1.1.0"], in: runners.tagged) == "chore(release): 1.1.0")
        #expect(try git(["show", "v1.1.0:CHANGELOG.md"], in: runners.tagged) == (try git(["show", "v1.1.0:CHANGELOG.md"], in: single)))
        #expect(try git(["show", "v1.1.0:VERSION"], in: runners.tagged) == "1.1.0")
        let status = try git(["status", "--porcelain"], in: runners.tagged)
        #expect(status == "", "\(status)")

        let names = try FileManager.default.contentsOfDirectory(atPath: runners.uploaded + "/published").sorted()
        #expect(names == ["SHA256SUMS", "SHA256SUMS.sig", "app-1.1.0.tar.gz", "app-1.1.0.tar.gz.sig"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: single + "/published").sorted() == names)
        for name in names where !name.hasSuffix(".sig") {
            let ours = FileManager.default.contents(atPath: runners.uploaded + "/published/" + name)
            #expect(ours != nil && ours == FileManager.default.contents(atPath: single + "/published/" + name), "\(name)")
            let verified = try CommandResult.run("/usr/bin/env", ["signify-openbsd", "-V", "-p", publicKey, "-m", name, "-x", name + ".sig"],
                                                 in: runners.uploaded + "/published")
            #expect(verified.status == 0, "\(name): \(verified.standardError)")
        }
    }
}
