import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// `slipway-merge-driver`, the small binary git runs as the driver: the same bytes written, the
/// same lines printed and the same exit status as `slipway xcodeproj merge`, and `--install`
/// writing its path (or falling back to `slipway xcodeproj merge`, saying so).
@Suite("slipway-merge-driver", .dedicatedThreads)
struct MergeDriverBinaryTests {
    /// Runs `slipway xcodeproj merge ARGS base ours theirs` and `slipway-merge-driver ARGS base
    /// ours theirs` on the same three versions, each in a folder of its own, and expects the
    /// same status, output, error output and files afterwards; returns the CLI's result and the
    /// merged text.
    @discardableResult
    private func sameAsCLI(base: String, ours: String, theirs: String?, options: [String] = [],
                           environment: [String: String?] = [:]) throws -> (CommandResult, String) {
        var results: [(CommandResult, [String: String])] = []
        for command in [[Binaries.slipway, "xcodeproj", "merge"], [Binaries.mergeDriver]] {
            let directory = try TemporaryDirectory(prefix: "pbx-driver")
            try directory.write("base", base)
            try directory.write("ours", ours)
            if let theirs { try directory.write("theirs", theirs) }
            var merged = GitFixture.environment.mapValues { Optional($0) }
            for (key, value) in environment { merged[key] = value }
            let result = try CommandResult.run(command[0], Array(command.dropFirst()) + options + ["base", "ours", "theirs"],
                                               in: directory.path, environment: merged)
            var files: [String: String] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                files[name] = try String(contentsOfFile: directory.path + "/" + name, encoding: .utf8)
            }
            results.append((result, files))
        }
        let (cli, cliFiles) = results[0], (driver, driverFiles) = results[1]
        #expect(driver.status == cli.status)
        #expect(driver.standardError == cli.standardError)
        #expect(driver.standardOutput == cli.standardOutput)
        #expect(driverFiles == cliFiles)
        #expect(cliFiles["base"] == base)
        #expect(cliFiles["theirs"] == theirs)
        #expect(cliFiles.keys.sorted() == (theirs == nil ? ["base", "ours"] : ["base", "ours", "theirs"]))
        return (cli, cliFiles["ours"] ?? "")
    }

    @Test("a clean merge: the same bytes written, nothing printed, exit 0")
    func clean() throws {
        let ours = try MergeCommandTests.edited { try $0.addFileReference(path: "A.swift", to: SampleProject.appGroup) }
        let theirs = try MergeCommandTests.edited { try $0.addFileReference(path: "B.swift", to: SampleProject.appGroup) }
        let (result, merged) = try sameAsCLI(base: SampleProject.text, ours: ours, theirs: theirs)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(merged.contains("A.swift") && merged.contains("B.swift"))
    }

    @Test("a conflict and a version both sides raised: the same markers, conflict lines, note and error, exit 1; with --versions conflict, the bumps in both configurations conflict too")
    func conflict() throws {
        let ours = try MergeCommandTests.edited {
            try $0.setBuildSetting("SWIFT_VERSION", to: "6.0", in: SampleProject.appDebug)
            _ = try $0.setBuildSetting("CURRENT_PROJECT_VERSION", to: "8")
        }
        let theirs = try MergeCommandTests.edited {
            try $0.setBuildSetting("SWIFT_VERSION", to: "5.10", in: SampleProject.appDebug)
            _ = try $0.setBuildSetting("CURRENT_PROJECT_VERSION", to: "11")
        }
        let (result, merged) = try sameAsCLI(base: SampleProject.text, ours: ours, theirs: theirs)
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.contains("conflict: 120000000000000000000003 /* Debug */ buildSettings.SWIFT_VERSION: ours \"6.0\", theirs \"5.10\""))
        #expect(lines.contains { $0.hasPrefix("note: ours: ") && $0.contains("CURRENT_PROJECT_VERSION") })
        #expect(lines.last == "error: ours: 1 conflicting entry left between conflict markers; resolve them and 'git add' the file")
        #expect(merged.contains("<<<<<<< ours\n\t\t\t\tSWIFT_VERSION = 6.0;\n=======\n\t\t\t\tSWIFT_VERSION = 5.10;\n>>>>>>> theirs\n"))
        let (strict, _) = try sameAsCLI(base: SampleProject.text, ours: ours, theirs: theirs, options: ["--versions", "conflict"])
        #expect(strict.status == 1)
        #expect(strict.standardError.hasSuffix("error: ours: 3 conflicting entries left between conflict markers; resolve them and 'git add' the file\n"))
        // Under GitHub Actions, the same annotation on standard output.
        let (annotated, _) = try sameAsCLI(base: SampleProject.text, ours: ours, theirs: theirs, environment: ["GITHUB_ACTIONS": "true"])
        #expect(annotated.standardOutput == "::error::ours: 1 conflicting entry left between conflict markers; resolve them and 'git add' the file\n")
    }

    @Test("a side that does not read (conflict markers): the same line merge and reason, exit 1; a missing file: the same error, exit 2, nothing written")
    func malformed() throws {
        let marked = SampleProject.text.replacingOccurrences(of: "/* Begin PBXGroup section */\n", with: "/* Begin PBXGroup section */\n<<<<<<< HEAD\n")
        let ours = try MergeCommandTests.edited { try $0.setBuildSetting("SWIFT_VERSION", to: "6.0", in: SampleProject.appDebug) }
        let (result, merged) = try sameAsCLI(base: SampleProject.text, ours: ours, theirs: marked)
        #expect(result.status == 1)
        let reason = try MergeCommandTests.readError(marked, side: "theirs")
        #expect(result.standardError == "error: ours: \(reason); merging line by line instead\n")
        #expect(merged.contains("SWIFT_VERSION = 6.0;") && merged.contains("<<<<<<< HEAD\n"))

        let (missing, unchanged) = try sameAsCLI(base: SampleProject.text, ours: ours, theirs: nil)
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix("error: theirs: "))
        #expect(unchanged == ours)
    }

    @Test("wrong arguments: a usage error naming what is expected, exit 64, nothing written")
    func usage() throws {
        let directory = try TemporaryDirectory(prefix: "pbx-driver")
        try directory.write("a", "x")
        let before = try Snapshot.of(directory.path)
        let two = try CommandResult.run(Binaries.mergeDriver, ["a", "a"], in: directory.path)
        #expect(two.status == 64)
        #expect(two.standardError.hasPrefix("error: expected three files, BASE OURS THEIRS (git passes %O %A %B), got 2\nUSAGE: slipway-merge-driver "))
        let versions = try CommandResult.run(Binaries.mergeDriver, ["--versions", "newest", "a", "a", "a"], in: directory.path)
        #expect(versions.status == 64)
        #expect(versions.standardError.hasPrefix("error: --versions takes 'higher' or 'conflict', got 'newest'\n"))
        let unknown = try CommandResult.run(Binaries.mergeDriver, ["--force", "a", "a", "a"], in: directory.path)
        #expect(unknown.status == 64)
        #expect(unknown.standardError.hasPrefix("error: unknown option '--force'\n"))
        #expect(try Snapshot.of(directory.path) == before)
    }

    /// A folder holding links named `slipway` (and `slipway-merge-driver` when `withDriver`) to the built binaries.
    private func linkedBinaries(_ folder: String, withDriver: Bool) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/slipway", withDestinationPath: Binaries.slipway)
        if withDriver {
            try FileManager.default.createSymbolicLink(atPath: folder + "/slipway-merge-driver", withDestinationPath: Binaries.mergeDriver)
        }
    }

    private func environment(path: String) -> [String: String?] {
        var environment = GitFixture.environment.mapValues { Optional($0) }
        environment["PATH"] = path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    @Test("--install, slipway started by name from PATH: the driver beside it, by the link's path (not the file it leads to); a git merge runs it")
    func installByName() throws {
        let bin = try TemporaryDirectory(prefix: "pbx-driver-bin")
        // A folder name the shell would split, unquote and run a command from.
        let folder = bin.path + "/tools dir's $(touch pwned)"
        try linkedBinaries(folder, withDriver: true)
        let ours = try MergeCommandTests.edited { try $0.addFileReference(path: "A.swift", to: SampleProject.appGroup) }
        let theirs = try MergeCommandTests.edited { try $0.addFileReference(path: "B.swift", to: SampleProject.appGroup) }
        let git = try GitFixture(prefix: "pbx-driver")
        try git.commit("base", files: [MergeCommandTests.pbxproj: SampleProject.text])
        try git.git("checkout", "--quiet", "-b", "feature")
        try git.commit("theirs", files: [MergeCommandTests.pbxproj: theirs])
        try git.git("checkout", "--quiet", "main")
        try git.commit("ours", files: [MergeCommandTests.pbxproj: ours])
        let install = try CommandResult.run("/usr/bin/env", ["slipway", "xcodeproj", "merge", "--install"], in: git.path, environment: environment(path: folder))
        #expect(install.status == 0)
        #expect(install.standardError == "")
        let command = "'\(bin.path)/tools dir'\\''s $(touch pwned)/slipway-merge-driver' %O %A %B"
        #expect(try git.git("config", "--get-all", "merge.pbxproj.driver") == command)
        #expect(install.standardOutput == "merge driver 'pbxproj' installed in .git/config (\(command)); added '*.pbxproj merge=pbxproj' to \(try git.git("rev-parse", "--show-toplevel"))/.gitattributes\n")
        // git runs it through the shell, quoted path and all; no slipway on PATH this time.
        let merge = try CommandResult.run("/usr/bin/env", ["git", "merge", "--no-edit", "feature"], in: git.path, environment: environment(path: "/usr/bin:/bin"))
        #expect(merge.status == 0, "\(merge.standardError)")
        let merged = try String(contentsOfFile: git.path + "/" + MergeCommandTests.pbxproj, encoding: .utf8)
        #expect(merged.contains("A.swift") && merged.contains("B.swift"))
        #expect(!FileManager.default.fileExists(atPath: git.path + "/pwned"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/pwned"))
    }

    @Test("--install with no slipway-merge-driver beside slipway: 'slipway xcodeproj merge', and a note saying so")
    func installWithoutDriver() throws {
        let bin = try TemporaryDirectory(prefix: "pbx-driver-bin")
        try linkedBinaries(bin.path, withDriver: false)
        let git = try GitFixture(prefix: "pbx-driver")
        let install = try CommandResult.run(bin.path + "/slipway", ["xcodeproj", "merge", "--install", "--versions", "conflict"], in: git.path,
                                            environment: environment(path: bin.path))
        #expect(install.status == 0)
        #expect(try git.git("config", "--get-all", "merge.pbxproj.driver") == "slipway xcodeproj merge --versions conflict %O %A %B")
        #expect(install.standardError == "note: no slipway-merge-driver beside \(bin.path)/slipway: the driver is 'slipway xcodeproj merge --versions conflict %O %A %B' (the same merge, slower to start); install slipway-merge-driver beside slipway, in a folder without '%', and run --install again\n")
    }
}
