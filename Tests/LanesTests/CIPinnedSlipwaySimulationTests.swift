import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 25, point 6: every exported job installs the pinned Slipway. The built `slipway` is
/// packed into a `.tar.gz` served on loopback, pinned in a Toolfile and locked with the real
/// `slipway tools lock`; the exported workflow runs in GitHubActionsSimulator (SIMULATION — not
/// GitHub) with NO slipway on PATH, so every job must install it through `$GITHUB_PATH`.
@Suite("ci export installs the pinned Slipway on simulated runners (not GitHub)", .dedicatedThreads)
struct CIPinnedSlipwaySimulationTests {
    /// `requires: [slipway]`: each job also runs `slipway tools install`, which must find the
    /// Slipway the install script put in place.
    static let lane = """
        ci-jobs: per-step
        requires: [slipway]
        steps:
          - run: { command: 'echo one > one.txt' }
            id: one
            artifacts: [one.txt]
          - run: { command: 'cat one.txt > two.txt' }
            id: two
            artifacts: [two.txt]
        """

    /// The simulator's environment with every folder that holds a `slipway` left out of PATH.
    static var environmentWithoutSlipway: [String: String] {
        var environment = GitHubActionsSimulator.defaultEnvironment
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        environment["PATH"] = folders.filter { !FileManager.default.isExecutableFile(atPath: $0 + "/slipway") }.joined(separator: ":")
        for key in ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"] {
            environment[key] = GitFixture.environment[key]
        }
        return environment
    }

    /// A `.tar.gz` in `folder` holding `file` as `slipway`; returns its bytes.
    static func archive(of file: String, in folder: TemporaryDirectory, name: String) throws -> Data {
        let staging = folder.path + "/\(name)-content"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: file, toPath: staging + "/slipway")
        let archive = folder.path + "/\(name).tar.gz"
        let tar = try CommandResult.run("/usr/bin/env", ["tar", "-czf", archive, "-C", staging, "slipway"])
        #expect(tar.status == 0, "\(tar.standardError)")
        return try Data(contentsOf: URL(fileURLWithPath: archive))
    }

    @Test
    func everyJobInstallsThePinnedSlipwayAndATamperedArchiveStopsTheJob() async throws {
        let version = try CommandResult.run(Binaries.slipway, ["--version"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let platform = try #require(Self.currentPlatform)
        let server = try LoopbackHTTPServer()
        let staging = try TemporaryDirectory(prefix: "slipway-pinned-archive")
        let served = "slipway-\(version)-\(platform).tar.gz"
        try server.put(served, try Self.archive(of: Binaries.slipway, in: staging, name: "real"))

        let origin = try GitFixture(prefix: "slipway-ci-pinned")
        let toolfile = """
            tools:
              slipway:
                archive: \(server.url(for: "slipway-{version}-{os}-{arch}.tar.gz"))
                executable: slipway
                platforms: [\(platform)]
                version: \(version)

            """
        try origin.commit("lane and Toolfile", files: ["lanes/ship.yml": Self.lane, "Toolfile": toolfile])
        let lock = try CommandResult.run(Binaries.slipway, ["tools", "lock"], in: origin.path)
        #expect(lock.status == 0, "\(lock.standardError)")
        try origin.commit("lock", files: ["Toolfile.lock": try String(contentsOfFile: origin.path + "/Toolfile.lock", encoding: .utf8)])

        let export = try CommandResult.run(Binaries.slipway, ["ci", "export", "ship", "--to", "github-actions"], in: origin.path)
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.standardOutput.contains("uses: actions/cache@"))

        let environment = Self.environmentWithoutSlipway
        #expect(try CommandResult.run("/usr/bin/env", ["sh", "-c", "command -v slipway"], environment: ["PATH": environment["PATH"]]).status != 0,
                "the simulated runners must start without slipway")
        let simulator = try GitHubActionsSimulator(workflow: export.standardOutput, origin: origin.path, environment: environment)
        let run = try await simulator.run()
        #expect(run.statuses == ["one": .succeeded, "two": .succeeded], "\(run["one"]?.log ?? "")\n\(run["two"]?.log ?? "")")
        for job in ["one", "two"] {
            let log = run[job]?.log ?? ""
            #expect(log.contains("slipway \(version) (\(platform)): downloading \(server.url(for: served))"), "\(job): \(log)")
            #expect(log.contains("Added to PATH ($GITHUB_PATH): "), "\(job): \(log)")
            #expect(log.contains("\n\(version)\n"), "\(job): slipway --version ran: \(log)")
            #expect(log.contains("slipway \(version) (already installed)"), "\(job): tools install found it: \(log)")
        }
        let two = try #require(run["two"]?.workspace)
        #expect(try String(contentsOfFile: two + "/two.txt", encoding: .utf8) == "one\n")

        // The archive is replaced behind the lock's back: the job fails at the install, before any lane step.
        let script = try staging.write("impostor", "#!/bin/sh\necho impostor\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        try server.put(served, try Self.archive(of: script, in: staging, name: "impostor"))
        let tampered = try GitHubActionsSimulator(workflow: export.standardOutput, origin: origin.path, environment: environment)
        let failed = try await tampered.run()
        #expect(failed.statuses == ["one": .failed, "two": .skipped])
        let log = failed["one"]?.log ?? ""
        #expect(log.contains("error: checksum mismatch for slipway \(version) (\(platform)) from \(server.url(for: served)): "
            + "Toolfile.lock expects sha256 "), "\(log)")
        let steps = Dictionary((failed["one"]?.steps ?? []).map { ($0.name, $0.status) }, uniquingKeysWith: { first, _ in first })
        #expect(steps["Install Slipway \(version) (Toolfile.lock)"] == .failed)
        #expect(steps["Run one"] == .skipped)
        let workspace = try #require(failed["one"]?.workspace)
        #expect(!FileManager.default.fileExists(atPath: workspace + "/one.txt"), "no lane step ran")
        withExtendedLifetime(server) {}
    }

    /// GitLab jobs keep the pinned Slipway in `.slipway/cache/` inside the checkout (GitLab
    /// caches only folders there): `git.ensure-clean` must not call that a dirty tree, and must
    /// still see any other untracked file.
    @Test
    func theInProjectCacheOfGitLabJobsDoesNotMakeTheTreeDirty() throws {
        let project = try GitFixture(prefix: "slipway-ci-cache-clean")
        try project.commit("lane", files: ["lanes/check.yml": "steps:\n  - git.ensure-clean: {}\n"])
        let cached = project.path + "/.slipway/cache/tools/slipway/1.2.3/linux-x86_64/slipway"
        try FileManager.default.createDirectory(atPath: (cached as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: cached))
        let clean = try CommandResult.run(Binaries.slipway, ["run", "check"], in: project.path, environment: ["NO_COLOR": "1"])
        #expect(clean.status == 0, "\(clean.standardOutput)\(clean.standardError)")
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: project.path + "/stray.txt"))
        let dirty = try CommandResult.run(Binaries.slipway, ["run", "check"], in: project.path, environment: ["NO_COLOR": "1"])
        #expect(dirty.status == 1)
        #expect((dirty.standardOutput + dirty.standardError).contains("stray.txt"))
        #expect(!(dirty.standardOutput + dirty.standardError).contains(".slipway/cache"))
    }

    /// This machine as Toolfile.lock names platforms.
    static var currentPlatform: String? {
        #if os(macOS)
        let os = "macos"
        #else
        let os = "linux"
        #endif
        #if arch(arm64)
        return "\(os)-arm64"
        #elseif arch(x86_64)
        return "\(os)-x86_64"
        #else
        return nil
        #endif
    }
}
