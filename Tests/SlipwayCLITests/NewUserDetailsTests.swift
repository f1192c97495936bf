import Foundation
import SlipwayCLI
import Testing
import TestSupport
import TestThreads

/// Details a new user met (issue 25, point 8), through the built `slipway` binary.
@Suite(.dedicatedThreads) struct NewUserDetailsTests {
    func slipway(_ arguments: [String], in directory: String? = nil) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory, environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil])
    }

    /// A repository tagged v1.2.0 followed by `commits`.
    func repository(_ commits: [String]) throws -> GitFixture {
        let repository = try GitFixture(prefix: "slipway-details")
        try repository.commit("feat: first", files: ["README": "1\n"])
        try repository.git("tag", "v1.2.0")
        for (index, message) in commits.enumerated() {
            try repository.commit(message, files: ["file\(index)": "\(index)\n"])
        }
        return repository
    }

    @Test func changelogShowsOneVersionOptionAndVersionPrintsSlipwaysVersion() throws {
        let help = try slipway(["changelog", "--help"])
        #expect(help.status == 0)
        let optionLines = help.standardOutput.split(separator: "\n").filter { $0.hasPrefix("  --") }
        #expect(optionLines.filter { $0.hasPrefix("  --version") }.map(String.init) == ["  --version               Show the version."],
                "\(help.standardOutput)")
        #expect(optionLines.contains { $0.hasPrefix("  --release-version <version>") }, "\(help.standardOutput)")

        let version = try slipway(["changelog", "--version"])
        #expect(version.status == 0, "\(version.standardError)")
        #expect(version.standardOutput == SlipwayVersion.current + "\n")

        let repository = try repository(["feat: search"])
        let before = try Snapshot.of(repository.path)
        let old = try slipway(["changelog", "--version", "1.3.0"], in: repository.path)
        #expect(old.status == 64)
        #expect(old.standardOutput == "")
        #expect(old.standardError.hasPrefix("Error: --version prints Slipway's version and takes no value; to preview "
            + "the changelog of release 1.3.0, use --release-version 1.3.0.\n"), "\(old.standardError)")
        let stray = try slipway(["changelog", "1.3.0"], in: repository.path)
        #expect(stray.status == 64)
        #expect(stray.standardError.hasPrefix("Error: Unexpected argument '1.3.0'; changelog takes options only (see "
            + "'slipway changelog --help').\n"), "\(stray.standardError)")

        let preview = try slipway(["changelog", "--release-version", "2.0.0"], in: repository.path)
        #expect(preview.status == 0, "\(preview.standardError)")
        #expect(preview.standardOutput.contains("2.0.0"), "\(preview.standardOutput)")
        #expect(preview.standardOutput.contains("search"), "\(preview.standardOutput)")
        let bad = try slipway(["changelog", "--release-version", "minor"], in: repository.path)
        #expect(bad.status != 0)
        #expect(bad.standardError.contains("--release-version takes a version such as 1.3.0 or 20.8, not 'minor'"), "\(bad.standardError)")
        #expect(try Snapshot.of(repository.path) == before)
    }

    @Test func nothingToReleaseHasItsOwnExitCode() throws {
        let repository = try repository(["chore: tidy", "docs: typo"])
        let before = try Snapshot.of(repository.path)
        for command in [["version", "--next"], ["changelog"]] {
            let result = try slipway(command, in: repository.path)
            #expect(result.status == 4, "\(command): \(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput == "")
            #expect(result.standardError.hasPrefix("error: "), "\(command): \(result.standardError)")
            #expect(result.standardError.contains("1.2.0"), "\(command): \(result.standardError)")
        }
        #expect(try Snapshot.of(repository.path) == before)
        // Something to release: success; a bad input still exits 2.
        try repository.commit("fix: crash", files: ["fix": "1\n"])
        let next = try slipway(["version", "--next"], in: repository.path)
        #expect(next.status == 0, "\(next.standardError)")
        #expect(next.standardOutput == "1.2.1\n")
        let help = try slipway(["--help"])
        #expect(help.standardOutput.contains("  4    nothing to release: version --next or changelog found no feat, fix, perf\n"))
        #expect(try slipway(["version", "--help"]).standardOutput.replacingOccurrences(of: "\n", with: " ").contains("--next exits 4 (nothing to release), not 1 or 2."))
    }

    @Test func lanesAndValidateCountStepsAlike() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-details")
        try folder.write("lanes/ci.yml", """
            steps:
              - run: echo one
              - parallel:
                  - run: echo two
                  - run: echo three
            finally:
              - run: echo done

            """)
        try folder.write("lanes/one.yml", "steps:\n  - run: echo one\n")
        let lanes = try slipway(["lanes"], in: folder.path)
        #expect(lanes.status == 0, "\(lanes.standardError)")
        #expect(lanes.standardOutput.contains("    3 steps + 1 finally · lanes/ci.yml\n"), "\(lanes.standardOutput)")
        #expect(lanes.standardOutput.contains("    1 step · lanes/one.yml\n"), "\(lanes.standardOutput)")
        let json = try slipway(["lanes", "--json"], in: folder.path)
        #expect(json.status == 0)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
        #expect(decoded?.map { "\($0["name"] ?? "") \($0["steps"] ?? "") \($0["finallySteps"] ?? "")" } == ["ci 3 1", "one 1 0"])
        let validate = try slipway(["validate"], in: folder.path)
        #expect(validate.status == 0, "\(validate.standardError)")
        #expect(validate.standardOutput == "✓ ci: 3 steps + 1 finally, valid\n✓ one: 1 step, valid\n")
    }
}
