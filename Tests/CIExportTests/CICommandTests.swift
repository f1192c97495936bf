import CIExport
import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway ci export` and `slipway ci check` through the real binary: output, exit codes,
/// bad input with exact messages (nothing written), and secrets.
@Suite("slipway ci export/check", .dedicatedThreads) struct CICommandTests {
    private func slipway(_ arguments: [String], in folder: TemporaryDirectory,
                         environment: [String: String?] = [:]) throws -> CommandResult {
        var environment = environment
        environment["NO_COLOR"] = "1"
        return try CommandResult.run(Binaries.slipway, arguments, in: folder.path, environment: environment)
    }

    @Test func exportWritesTheFileThatCheckAccepts() async throws {
        let folder = try CIExportSupport.matrixProject()
        for engine in CIEngine.allCases {
            let output = CIExportSupport.outputPath("ios-matrix", engine)
            let export = try slipway(["ci", "export", "ios-matrix", "--to", engine.rawValue, "--output", output], in: folder)
            #expect(export.status == 0, "\(export.standardError)")
            let written = try String(contentsOfFile: folder.path + "/" + output, encoding: .utf8)
            #expect(written == (try String(contentsOfFile: CIExportSupport.golden("ios-matrix", engine), encoding: .utf8)))
            let check = try slipway(["ci", "check", "ios-matrix", "--to", engine.rawValue, "--file", output], in: folder)
            #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
            #expect(check.standardOutput == "\(output) is up to date with lane 'ios-matrix'\n")
        }
        let stdout = try slipway(["ci", "export", "ios-matrix", "--to", "gitlab"], in: folder)
        #expect(stdout.status == 0)
        // Without --output the header's commands name no file; the rest is the same.
        let golden = try String(contentsOfFile: CIExportSupport.golden("ios-matrix", .gitlab), encoding: .utf8)
        #expect(stdout.standardOutput.contains("#   slipway ci check ios-matrix --to gitlab --file FILE\n"))
        #expect(stdout.standardOutput.split(separator: "\n").dropFirst(5) == golden.split(separator: "\n").dropFirst(5))
    }

    @Test func checkFailsWithADiffWhenTheLaneChanged() throws {
        let folder = try CIExportSupport.matrixProject()
        let output = ".github/workflows/ios-matrix.yml"
        _ = try slipway(["ci", "export", "ios-matrix", "--to", "github-actions", "--output", output], in: folder)
        let lane = folder.path + "/lanes/ios-matrix.yml"
        let text = try String(contentsOfFile: lane, encoding: .utf8)
        try text.replacingOccurrences(of: "default: Release", with: "default: Debug").write(toFile: lane, atomically: true, encoding: .utf8)
        let check = try slipway(["ci", "check", "ios-matrix", "--to", "github-actions", "--file", output], in: folder)
        #expect(check.status == 1)
        #expect(check.standardOutput.contains("""
            --- .github/workflows/ios-matrix.yml
            +++ slipway ci export ios-matrix --to github-actions
            """))
        #expect(check.standardOutput.contains("-        default: Release\n+        default: Debug\n"))
        #expect(check.standardError == "error: '\(output)' is out of date with lane 'ios-matrix'; regenerate it with 'slipway ci export ios-matrix --to github-actions --output \(output)' (and the same options)\n")
        let missing = try slipway(["ci", "check", "ios-matrix", "--to", "buildkite", "--file", "nothing.yml"], in: folder)
        #expect(missing.status == 1)
        #expect(missing.standardOutput.contains("+steps:\n"))
    }

    static let badInput: [(name: String, arguments: [String], lane: String?, expected: String)] = [
        ("unknown engine", ["ci", "export", "ios-matrix", "--to", "jenkins", "--output", "out.yml"], nil,
         "error: unknown CI engine 'jenkins'; use one of: github-actions, gitlab, buildkite\n"),
        ("unknown engine (check)", ["ci", "check", "ios-matrix", "--to", "circleci", "--file", "out.yml"], nil,
         "error: unknown CI engine 'circleci'; use one of: github-actions, gitlab, buildkite\n"),
        ("missing lane", ["ci", "export", "ios-matrx", "--to", "gitlab", "--output", "out.yml"], nil,
         "error: there is no lane 'ios-matrx' in 'lanes'. Did you mean 'ios-matrix'? (available: ios-matrix)\n"),
        ("runs-on contradicts platforms", ["ci", "export", "bad", "--to", "github-actions", "--output", "out.yml"],
         "steps:\n  - xcode.archive: { project: App.xcodeproj, scheme: App, configuration: \"${{ env.C }}\" }\n    id: archive\n    runs-on: linux\n",
         "error: lanes/bad.yml:2:5: step 'archive' (xcode.archive) runs only on macos, but 'runs-on: linux' puts it on a linux runner; set 'runs-on: macos' or remove 'runs-on:' to let its platforms choose\n"),
        ("bad runner option", ["ci", "export", "ios-matrix", "--to", "gitlab", "--runner", "windows=win", "--output", "out.yml"], nil,
         "error: --runner 'windows=win' must be linux=LABEL or macos=LABEL (the engine's runner label for that system)\n"),
    ]

    @Test(arguments: 0..<badInput.count)
    func badInputExitsTwoAndWritesNothing(_ index: Int) throws {
        let testCase = Self.badInput[index]
        let folder = try CIExportSupport.matrixProject()
        if let lane = testCase.lane { try folder.write("lanes/bad.yml", lane) }
        let before = try Snapshot.of(folder.path)
        let result = try slipway(testCase.arguments, in: folder)
        #expect(result.status == 2, "\(testCase.name): \(result.standardError)")
        #expect(result.standardError == testCase.expected, "\(testCase.name)")
        #expect(try Snapshot.of(folder.path) == before, "\(testCase.name) wrote something")
    }

    /// A checkout can make `.github/workflows` a link to any folder of the runner; export does
    /// not write through it (issue 23).
    @Test func exportDoesNotWriteThroughALinkInTheProject() throws {
        let folder = try CIExportSupport.matrixProject()
        let outside = try TemporaryDirectory(prefix: "slipway-ci-outside")
        try FileManager.default.createDirectory(atPath: folder.path + "/.github", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/.github/workflows", withDestinationPath: outside.path)
        let before = try Snapshot.of(folder.path), outsideBefore = try Snapshot.of(outside.path)
        let output = ".github/workflows/ios-matrix.yml"
        let result = try slipway(["ci", "export", "ios-matrix", "--to", "github-actions", "--output", output], in: folder)
        #expect(result.status == 2)
        #expect(result.standardError == "error: '\(output)' is inside '.github/workflows', which is a symbolic link; 'ci export' "
            + "writes only inside the project: remove the link, or give --output a path without it\n")
        #expect(try Snapshot.of(outside.path) == outsideBefore)
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test(arguments: CIEngine.allCases)
    func secretsNeverAppearAndGoOnlyToTheJobsThatUseThem(engine: CIEngine) throws {
        let folder = try CIExportSupport.matrixProject()
        let values = ["SIGNING_PASSWORD": "pw-\(UUID().uuidString)", "UPLOAD_TOKEN": "tok-\(UUID().uuidString)"]
        let result = try slipway(["ci", "export", "ios-matrix", "--to", engine.rawValue], in: folder, environment: values)
        #expect(result.status == 0, "\(result.standardError)")
        for value in values.values {
            #expect(!result.standardOutput.contains(value))
            #expect(!result.standardError.contains(value))
        }
        let jobs = CIExportSupport.jobSections(result.standardOutput, engine: engine).filter { $0.key != "slipway-inputs" }
        #expect(Set(jobs.keys) == ["linux-tests", "ios-tests", "xcarchive", "publish", "finally"])
        let users = ["SIGNING_PASSWORD": "xcarchive", "UPLOAD_TOKEN": "publish"]
        for (secret, user) in users {
            for (job, text) in jobs {
                switch engine {
                case .githubActions, .buildkite:
                    #expect(text.contains(secret) == (job == user), "\(secret) in \(job)")
                case .gitlab:
                    // GitLab gives project variables to every job: the others unset it.
                    let unset = text.split(separator: "\n").contains { $0.contains("- unset ") && $0.contains(secret) }
                    #expect(unset == (job != user), "\(secret) in \(job)")
                }
            }
        }
        if engine == .githubActions {
            #expect(jobs["xcarchive"]?.contains("      SIGNING_PASSWORD: ${{ secrets.SIGNING_PASSWORD }}\n") == true)
        }
    }
}
