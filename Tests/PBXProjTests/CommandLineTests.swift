import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// `slipway xcodeproj ...` end to end, through the built binary.
@Suite("slipway xcodeproj", .dedicatedThreads)
struct CommandLineTests {
    /// The built binary, when it exists and has the `xcodeproj` command.
    private func slipway(_ test: String) throws -> String? {
        let binary = ProcessInfo.processInfo.environment["SLIPWAY_BINARY"] ?? Binaries.slipway
        // `--help` succeeds even for an unknown subcommand (it prints the root's help), so look
        // for the subcommand's own usage line.
        guard FileManager.default.isExecutableFile(atPath: binary),
            try CommandResult.run(binary, ["xcodeproj", "--help"]).standardOutput.contains("USAGE: slipway xcodeproj")
        else {
            print("SKIPPED \(test): no slipway binary with the xcodeproj command at \(binary) (build the package; XcodeprojCommand must be listed in SlipwayCommand)")
            return nil
        }
        return binary
    }

    private func sample(in directory: TemporaryDirectory, text: String = SampleProject.text) throws -> String {
        try directory.write("Sample.xcodeproj/project.pbxproj", text)
        return directory.path + "/Sample.xcodeproj"
    }

    @Test("verify: exit 0 on a project written back byte for byte")
    func verifyIdentical() throws {
        guard let binary = try slipway("verifyIdentical") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-cli")
        let project = try sample(in: directory)
        let result = try CommandResult.run(binary, ["xcodeproj", "verify", project])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("OK, written back byte for byte"))
    }

    @Test("verify: exit 2 naming file, line and column for a bad file, which stays untouched")
    func verifyBadFile() throws {
        guard let binary = try slipway("verifyBadFile") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-cli")
        let text = String(SampleProject.text.prefix(3000))
        let project = try sample(in: directory, text: text)
        let result = try CommandResult.run(binary, ["xcodeproj", "verify", project])
        #expect(result.status == 2)
        let location = try #require(result.standardError.range(of: "\(project)/project.pbxproj:"))
        #expect(result.standardError.hasPrefix("error: "))
        #expect(result.standardError[location.upperBound...].contains(": the file ends too early"))
        #expect(try String(contentsOfFile: project + "/project.pbxproj", encoding: .utf8) == text)
    }

    @Test("verify: a merge conflict names the marker's line")
    func verifyMergeConflict() throws {
        guard let binary = try slipway("verifyMergeConflict") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-cli")
        let text = SampleProject.text.replacingOccurrences(of: "/* Begin PBXGroup section */\n", with: "/* Begin PBXGroup section */\n<<<<<<< HEAD\n")
        let project = try sample(in: directory, text: text)
        let result = try CommandResult.run(binary, ["xcodeproj", "verify", project + "/project.pbxproj"])
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("<<<<<<<") }) + 1
        #expect(result.status == 2)
        #expect(result.standardError.contains("project.pbxproj:\(line):1: git merge-conflict marker '<<<<<<< HEAD'"))
    }

    @Test("verify: dangling references are warnings, exit 0")
    func verifyWarnings() throws {
        guard let binary = try slipway("verifyWarnings") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-cli")
        let text = SampleProject.text.replacingOccurrences(of: "fileRef = \(SampleProject.contentView) /* ContentView.swift */", with: "fileRef = 0B00000000000000000000FF")
        let project = try sample(in: directory, text: text)
        let result = try CommandResult.run(binary, ["xcodeproj", "verify", project])
        #expect(result.status == 0)
        #expect(result.standardError.contains("warning: "))
        #expect(result.standardError.contains("refers to '0B00000000000000000000FF', which is not an object"))
    }

    @Test("format --check: exit 0 when canonical, 1 naming the first difference otherwise; format rewrites")
    func format() throws {
        guard let binary = try slipway("format") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-cli")
        let project = try sample(in: directory)
        #expect(try CommandResult.run(binary, ["xcodeproj", "format", project, "--check"]).status == 0)
        let messy = SampleProject.text.replacingOccurrences(of: "path = App;", with: "path = \"App\";")
        try directory.write("Sample.xcodeproj/project.pbxproj", messy)
        let check = try CommandResult.run(binary, ["xcodeproj", "format", project, "--check"])
        #expect(check.status == 1)
        #expect(check.standardError.contains("is not in Xcode's form"))
        #expect(check.standardError.contains("  - \t\t\tpath = \"App\";"))
        #expect(try String(contentsOfFile: project + "/project.pbxproj", encoding: .utf8) == messy)
        #expect(try CommandResult.run(binary, ["xcodeproj", "format", project]).status == 0)
        #expect(try String(contentsOfFile: project + "/project.pbxproj", encoding: .utf8) == SampleProject.text)
    }

    @Test("groups: an outline and sorted-key JSON")
    func groups() throws {
        guard let binary = try slipway("groups") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-cli")
        let project = try sample(in: directory)
        let outline = try CommandResult.run(binary, ["xcodeproj", "groups", project])
        #expect(outline.status == 0)
        #expect(outline.standardOutput.contains("    AppDelegate.swift  →  App/AppDelegate.swift\n"))
        let json = try CommandResult.run(binary, ["xcodeproj", "groups", project, "--json"])
        #expect(json.status == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(root["id"] as? String == SampleProject.mainGroup.rawValue)
        let children = try #require(root["children"] as? [[String: Any]])
        #expect(children.first?["resolvedPath"] as? String == "App")
    }

    @Test("settings and set-setting")
    func settings() throws {
        guard let binary = try slipway("settings") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-cli")
        let project = try sample(in: directory)
        let read = try CommandResult.run(binary, ["xcodeproj", "settings", project, "--target", "App", "--configuration", "Release", "--json"])
        #expect(read.status == 0)
        #expect(read.standardOutput.contains("\"MARKETING_VERSION\" : \"1.2.0\""))
        let set = try CommandResult.run(binary, ["xcodeproj", "set-setting", project, "MARKETING_VERSION", "2.0", "--only-where-defined"])
        #expect(set.status == 0)
        #expect(set.standardError.contains("'AppTests'"))
        let written = try String(contentsOfFile: project + "/project.pbxproj", encoding: .utf8)
        #expect(written == SampleProject.text.replacingOccurrences(of: "MARKETING_VERSION = 1.2.0;", with: "MARKETING_VERSION = 2.0;"))
        let bad = try CommandResult.run(binary, ["xcodeproj", "set-setting", project, "X", "1", "--target", "Nope"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("no target named 'Nope'"))
        #expect(try CommandResult.run(binary, ["xcodeproj", "set-setting", project, "X"]).status == 64)
    }

    @Test("every corpus file verifies byte for byte through the command")
    func corpusVerify() throws {
        guard let binary = try slipway("corpusVerify"), let entries = try CorpusFixtures.entries(for: "corpusVerify") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-cli-corpus")
        var passed = 0
        for entry in entries {
            let folder = try entry.install(in: directory)
            let result = try CommandResult.run(binary, ["xcodeproj", "verify", folder])
            let expected: Int32 = entry.baseName == CorpusFixtures.mergeConflict ? 2 : 0
            #expect(result.status == expected, "\(entry.baseName): \(result.standardError)")
            if result.status == expected { passed += 1 }
        }
        print("slipway xcodeproj verify: \(passed)/\(entries.count) corpus files behave as expected")
    }
}
