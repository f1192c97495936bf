import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// `slipway xcodeproj diff` end to end, through the built binary: exit codes, JSON, `--rev`
/// against a git fixture, `--textconv` under a real `git diff`, and bad input.
@Suite("slipway xcodeproj diff", .dedicatedThreads)
struct DiffCommandLineTests {
    /// The built binary; a missing one fails the test (as in the other CLI tests), never skips it.
    private func slipway(_ test: String) throws -> String? {
        Binaries.slipway
    }

    /// The sample with the App target's Release MARKETING_VERSION (its last occurrence) at 1.3.0.
    private static let newVersion: String = {
        var text = SampleProject.text
        if let range = text.range(of: "MARKETING_VERSION = 1.2.0;", options: .backwards) {
            text.replaceSubrange(range, with: "MARKETING_VERSION = 1.3.0;")
        }
        return text
    }()

    @Test("exit 0 and no output when equal (formatting aside), 1 and the changes when different, JSON")
    func exitCodes() throws {
        guard let binary = try slipway("exitCodes") else { return }
        #expect(Self.newVersion != SampleProject.text)
        let directory = try TemporaryDirectory(prefix: "pbx-diff")
        try directory.write("A.xcodeproj/project.pbxproj", SampleProject.text)
        try directory.write("B.xcodeproj/project.pbxproj", SampleProject.text.replacingOccurrences(of: "path = App;", with: "path = \"App\";"))
        try directory.write("C.xcodeproj/project.pbxproj", Self.newVersion)
        let a = directory.path + "/A.xcodeproj", b = directory.path + "/B.xcodeproj", c = directory.path + "/C.xcodeproj/project.pbxproj"
        let same = try CommandResult.run(binary, ["xcodeproj", "diff", a, b])
        #expect(same.status == 0)
        #expect(same.standardOutput == "")
        let different = try CommandResult.run(binary, ["xcodeproj", "diff", a, c])
        #expect(different.status == 1)
        #expect(different.standardOutput.contains("Build settings:\n  App › "))
        #expect(different.standardOutput.contains("    ~ MARKETING_VERSION: 1.2.0 → 1.3.0\n"))
        #expect(!different.standardOutput.contains("\u{1B}["), "no colour when not on a terminal")
        let json = try CommandResult.run(binary, ["xcodeproj", "diff", a, c, "--json"])
        #expect(json.status == 1)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(root["equal"] as? Bool == false)
        #expect(root["old"] as? String == a + "/project.pbxproj")
        #expect(root["new"] as? String == c)
        let changes = try #require(root["changes"] as? [String: Any])
        #expect(Set(changes.keys) == ["buildPhases", "buildSettings", "files", "groups", "packages", "synchronizedFolders", "targets"])
        let settings = try #require(changes["buildSettings"] as? [[String: Any]])
        #expect(settings.count == 1)
        #expect((settings.first?["changed"] as? [String: [String: String]])?["MARKETING_VERSION"] == ["old": "1.2.0", "new": "1.3.0"])
        let equalJSON = try CommandResult.run(binary, ["xcodeproj", "diff", a, b, "--json"])
        #expect(equalJSON.status == 0)
        #expect(equalJSON.standardOutput.contains("\"equal\" : true"))
    }

    @Test("bad input: not a project, a file that does not parse; exit 2 with the exact message")
    func badInput() throws {
        guard let binary = try slipway("badInput") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-diff")
        try directory.write("A.xcodeproj/project.pbxproj", SampleProject.text)
        let a = directory.path + "/A.xcodeproj"
        let missing = directory.path + "/Nope.xcodeproj"
        let notProject = try CommandResult.run(binary, ["xcodeproj", "diff", a, missing])
        #expect(notProject.status == 2)
        #expect(notProject.standardError == "error: '\(missing)' is not an Xcode project: there is no '\(missing)/project.pbxproj'; pass a .xcodeproj folder or the project.pbxproj inside it\n")
        #expect(notProject.standardOutput == "")

        let conflicted = SampleProject.text.replacingOccurrences(of: "/* Begin PBXGroup section */\n", with: "/* Begin PBXGroup section */\n<<<<<<< HEAD\n")
        try directory.write("Bad.xcodeproj/project.pbxproj", conflicted)
        let line = try #require(conflicted.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("<<<<<<<") }) + 1
        let bad = try CommandResult.run(binary, ["xcodeproj", "diff", a, directory.path + "/Bad.xcodeproj"])
        #expect(bad.status == 2)
        #expect(bad.standardError == "error: \(directory.path)/Bad.xcodeproj/project.pbxproj:\(line):1: git merge-conflict marker '<<<<<<< HEAD' in the project file; resolve the conflict, then run again\n")
    }

    @Test("--rev: a revision against the working copy, A..B, an unknown revision, a path missing at a revision")
    func revisions() throws {
        guard let binary = try slipway("revisions") else { return }
        let repository = try GitFixture(prefix: "pbx-diff-git")
        try repository.commit("base", files: ["App/App.xcodeproj/project.pbxproj": SampleProject.text])
        let project = repository.path + "/App/App.xcodeproj"
        #expect(try CommandResult.run(binary, ["xcodeproj", "diff", project, "--rev", "HEAD"]).status == 0)
        try repository.write("App/App.xcodeproj/project.pbxproj", Self.newVersion)
        let working = try CommandResult.run(binary, ["xcodeproj", "diff", project, "--rev", "HEAD", "--json"])
        #expect(working.status == 1)
        #expect(working.standardOutput.contains("\"old\" : \"HEAD:App/App.xcodeproj/project.pbxproj\""))
        #expect(working.standardOutput.contains("\"new\" : \"1.3.0\""))
        try repository.commit("bump")
        let range = try CommandResult.run(binary, ["xcodeproj", "diff", project, "--rev", "HEAD~1..HEAD"])
        #expect(range.status == 1)
        #expect(range.standardOutput.contains("    ~ MARKETING_VERSION: 1.2.0 → 1.3.0\n"))
        #expect(try CommandResult.run(binary, ["xcodeproj", "diff", project, "--rev", "HEAD"]).status == 0)

        let unknown = try CommandResult.run(binary, ["xcodeproj", "diff", project, "--rev", "no-such-tag"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.hasPrefix("error: Revision 'no-such-tag' was not found in '\(repository.path)' (libgit2: "))
        #expect(unknown.standardError.hasSuffix("Check the name with 'git rev-parse no-such-tag'; fetch tags and branches if it lives on a remote.\n"))

        try repository.write("Other/Other.xcodeproj/project.pbxproj", SampleProject.text)
        let other = repository.path + "/Other/Other.xcodeproj"
        let absent = try CommandResult.run(binary, ["xcodeproj", "diff", other, "--rev", "HEAD"])
        #expect(absent.status == 2)
        #expect(absent.standardError == "error: 'Other/Other.xcodeproj/project.pbxproj' does not exist at revision 'HEAD' in '\(repository.path)'. Check the path with 'git ls-tree HEAD -- Other/Other.xcodeproj/project.pbxproj' (it is relative to the repository root).\n")
    }

    @Test("--rev A..B reads both sides from git: the project (and its folder) deleted from the working copy")
    func rangeOfADeletedProject() throws {
        guard let binary = try slipway("deleted") else { return }
        let repository = try GitFixture(prefix: "pbx-diff-deleted")
        try repository.commit("base", files: ["App/App.xcodeproj/project.pbxproj": SampleProject.text])
        try repository.commit("bump", files: ["App/App.xcodeproj/project.pbxproj": Self.newVersion])
        try FileManager.default.removeItem(atPath: repository.path + "/App")
        let before = try Snapshot.of(repository.path)
        let range = try CommandResult.run(binary, ["xcodeproj", "diff", "App/App.xcodeproj", "--rev", "HEAD~1..HEAD"],
                                          in: repository.path)
        #expect(range.status == 1, "\(range.standardError)")
        #expect(range.standardError == "")
        #expect(range.standardOutput.contains("    ~ MARKETING_VERSION: 1.2.0 → 1.3.0\n"))
        let json = try CommandResult.run(binary, ["xcodeproj", "diff", repository.path + "/App/App.xcodeproj", "--rev", "HEAD~1..HEAD", "--json"])
        #expect(json.status == 1, "\(json.standardError)")
        #expect(json.standardOutput.contains("\"old\" : \"HEAD~1:App/App.xcodeproj/project.pbxproj\""))
        #expect(json.standardOutput.contains("\"new\" : \"HEAD:App/App.xcodeproj/project.pbxproj\""))
        // One revision against the working copy still needs the project on disk.
        let single = try CommandResult.run(binary, ["xcodeproj", "diff", "App/App.xcodeproj", "--rev", "HEAD"], in: repository.path)
        #expect(single.status == 2)
        #expect(single.standardError.hasPrefix("error: "))
        #expect(try Snapshot.of(repository.path) == before)
    }

    @Test("--textconv: git diff shows semantic lines, and nothing for a reformatted file")
    func textconv() throws {
        guard let binary = try slipway("textconv") else { return }
        let repository = try GitFixture(prefix: "pbx-diff-textconv")
        try repository.git("config", "diff.pbxproj.textconv", "'\(binary)' xcodeproj diff --textconv")
        try repository.commit("base", files: [".gitattributes": "*.pbxproj diff=pbxproj\n", "App.xcodeproj/project.pbxproj": SampleProject.text])
        try repository.write("App.xcodeproj/project.pbxproj", Self.newVersion)
        let output = try repository.git("diff")
        #expect(output.contains("\n-setting target App › Release: MARKETING_VERSION = 1.2.0\n+setting target App › Release: MARKETING_VERSION = 1.3.0"))
        let changed = output.split(separator: "\n").filter { ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---") }
        #expect(changed.count == 2, "only the changed fact: \(output)")
        try repository.write("App.xcodeproj/project.pbxproj", SampleProject.text.replacingOccurrences(of: "path = App;", with: "path = \"App\";"))
        let reformatted = try repository.git("diff")
        #expect(!reformatted.contains("\n+"), "formatting is not a semantic change: \(reformatted)")
        #expect(try repository.git("diff", "--no-textconv").contains("+\t\t\tpath = \"App\";"))
    }
}
