import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// `slipway xcodeproj merge` end to end: the driver installed in a git repository and run by a
/// real `git merge`, and the line-based fallback for bad input.
@Suite("slipway xcodeproj merge", .dedicatedThreads)
struct MergeCommandTests {
    /// The built binary; a missing one fails the test (as in the other CLI tests), never skips it.
    private func slipway(_ test: String) throws -> String? {
        Binaries.slipway
    }

    static let pbxproj = "App.xcodeproj/project.pbxproj"

    static func edited(_ edit: (inout PBXProject) throws -> Void) throws -> String {
        var project = try PBXProject(bytes: Array(SampleProject.text.utf8), projectName: "Sample")
        try edit(&project)
        return String(decoding: try project.canonicalSerialized(), as: UTF8.self)
    }

    /// The driver's reason for not reading `text` as the `side` version (what it prints).
    static func readError(_ text: String, side: String) throws -> String {
        do {
            _ = try PBXProject(bytes: Array(text.utf8), projectName: "Sample")
        } catch let error as PBXProjError {
            return PBXProjMergeError.unreadable(side: side, error: error).message
        }
        Issue.record("'\(side)' unexpectedly reads as a project")
        return ""
    }

    /// A repository with the sample project on main, `ours` committed on main and `theirs` on a
    /// branch, with the driver installed.
    private func repository(binary: String, ours: String, theirs: String) throws -> GitFixture {
        let git = try GitFixture(prefix: "pbx-merge")
        try git.commit("base", files: [Self.pbxproj: SampleProject.text])
        try git.git("checkout", "--quiet", "-b", "feature")
        try git.commit("theirs", files: [Self.pbxproj: theirs])
        try git.git("checkout", "--quiet", "main")
        try git.commit("ours", files: [Self.pbxproj: ours])
        let install = try CommandResult.run(binary, ["xcodeproj", "merge", "--install"], in: git.path, environment: gitEnvironment(binary))
        #expect(install.status == 0, "\(install.standardError)")
        return git
    }

    private func gitEnvironment(_ binary: String) -> [String: String?] {
        var environment = GitFixture.environment.mapValues { Optional($0) }
        let folder = (binary as NSString).deletingLastPathComponent
        environment["PATH"] = folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    private func gitMerge(_ git: GitFixture, binary: String) throws -> CommandResult {
        try CommandResult.run("/usr/bin/env", ["git", "merge", "--no-edit", "feature"], in: git.path, environment: gitEnvironment(binary))
    }

    @Test("--install writes the driver and the attributes line once, however often it runs")
    func install() throws {
        guard let binary = try slipway("install") else { return }
        let git = try GitFixture(prefix: "pbx-merge")
        try git.write(".gitattributes", "*.png binary")
        for _ in 0..<2 {
            let result = try CommandResult.run(binary, ["xcodeproj", "merge", "--install"], in: git.path, environment: gitEnvironment(binary))
            #expect(result.status == 0, "\(result.standardError)")
        }
        // The small driver binary beside slipway, by its path.
        #expect(try git.git("config", "--get-all", "merge.pbxproj.driver") == Binaries.mergeDriver + " %O %A %B")
        #expect(!(try git.git("config", "--get-all", "merge.pbxproj.name")).isEmpty)
        #expect(try String(contentsOfFile: git.path + "/.gitattributes", encoding: .utf8) == "*.png binary\n*.pbxproj merge=pbxproj\n")
    }

    @Test("git merge with the driver: both sides' files are kept, no conflict")
    func cleanGitMerge() throws {
        guard let binary = try slipway("cleanGitMerge") else { return }
        let ours = try Self.edited { try $0.addFileReference(path: "A.swift", to: SampleProject.appGroup) }
        let theirs = try Self.edited { try $0.addFileReference(path: "B.swift", to: SampleProject.appGroup) }
        let git = try repository(binary: binary, ours: ours, theirs: theirs)
        let result = try gitMerge(git, binary: binary)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let merged = try String(contentsOfFile: git.path + "/" + Self.pbxproj, encoding: .utf8)
        let expected = try Self.edited {
            try $0.addFileReference(path: "A.swift", to: SampleProject.appGroup)
            try $0.addFileReference(path: "B.swift", to: SampleProject.appGroup)
        }
        #expect(merged == expected)
        // Only the attributes file --install wrote is left to commit.
        #expect(try git.git("status", "--porcelain") == "?? .gitattributes")
        #expect(try git.git("log", "-1", "--format=%s").hasPrefix("Merge branch 'feature'"))
    }

    @Test("git merge with the driver: the same setting changed twice is a conflict around that entry")
    func conflictingGitMerge() throws {
        guard let binary = try slipway("conflictingGitMerge") else { return }
        let ours = try Self.edited { try $0.setBuildSetting("SWIFT_VERSION", to: "6.0", in: SampleProject.appDebug) }
        let theirs = try Self.edited { try $0.setBuildSetting("SWIFT_VERSION", to: "5.10", in: SampleProject.appDebug) }
        let git = try repository(binary: binary, ours: ours, theirs: theirs)
        let result = try gitMerge(git, binary: binary)
        #expect(result.status == 1)
        #expect(result.standardError.contains("conflict: 120000000000000000000003 /* Debug */ buildSettings.SWIFT_VERSION: ours \"6.0\", theirs \"5.10\""))
        let merged = try String(contentsOfFile: git.path + "/" + Self.pbxproj, encoding: .utf8)
        #expect(merged.contains("<<<<<<< ours\n\t\t\t\tSWIFT_VERSION = 6.0;\n=======\n\t\t\t\tSWIFT_VERSION = 5.10;\n>>>>>>> theirs\n"))
        #expect(try git.git("status", "--porcelain").contains("UU \(Self.pbxproj)"))
    }

    @Test("git merge with the driver: both branches bumped the build number; the higher is kept with a note, or, installed with --versions conflict, a conflict")
    func versionBumps() throws {
        guard let binary = try slipway("versionBumps") else { return }
        let bump = { (value: String) in try Self.edited { _ = try $0.setBuildSetting("CURRENT_PROJECT_VERSION", to: value) } }
        let git = try repository(binary: binary, ours: try bump("8"), theirs: try bump("11"))
        let result = try gitMerge(git, binary: binary)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardError.contains(#"buildSettings.CURRENT_PROJECT_VERSION: both sides raised "7" (ours "8", theirs "11"); kept the higher, "11""#))
        #expect(try String(contentsOfFile: git.path + "/" + Self.pbxproj, encoding: .utf8) == (try bump("11")))

        let strict = try repository(binary: binary, ours: try bump("8"), theirs: try bump("11"))
        let install = try CommandResult.run(
            binary, ["xcodeproj", "merge", "--install", "--versions", "conflict"], in: strict.path, environment: gitEnvironment(binary))
        #expect(install.status == 0, "\(install.standardError)")
        #expect(try strict.git("config", "--get-all", "merge.pbxproj.driver") == Binaries.mergeDriver + " --versions conflict %O %A %B")
        let conflicted = try gitMerge(strict, binary: binary)
        #expect(conflicted.status == 1)
        #expect(conflicted.standardError.contains(#"buildSettings.CURRENT_PROJECT_VERSION: ours "8", theirs "11""#))
        #expect(try strict.git("status", "--porcelain").contains("UU \(Self.pbxproj)"))
    }

    /// Our side pins the package to a branch, theirs moves its minimum version.
    static func requirementSides() throws -> (ours: String, theirs: String) {
        let ours = try edited { try $0.modify(SampleProject.remotePackage) { $0["requirement"] = ["branch": "main", "kind": "branch"] } }
        let theirs = try edited {
            try $0.modify(SampleProject.remotePackage) { $0["requirement"] = ["kind": "upToNextMajorVersion", "minimumVersion": "1.6.0"] }
        }
        return (ours, theirs)
    }

    /// The merge of `requirementSides`: our text with the whole requirement of each side
    /// between the markers.
    static func requirementConflict(_ ours: String) throws -> String {
        let ourEntry = "\t\t\trequirement = {\n\t\t\t\tbranch = main;\n\t\t\t\tkind = branch;\n\t\t\t};\n"
        let theirEntry = "\t\t\trequirement = {\n\t\t\t\tkind = upToNextMajorVersion;\n\t\t\t\tminimumVersion = 1.6.0;\n\t\t\t};\n"
        #expect(ours.components(separatedBy: ourEntry).count == 2)
        return ours.replacingOccurrences(of: ourEntry, with: "<<<<<<< ours\n" + ourEntry + "=======\n" + theirEntry + ">>>>>>> theirs\n")
    }

    static let requirementConflictLine = #"conflict: 130000000000000000000001 /* XCRemoteSwiftPackageReference "swift-argument-parser" */ requirement: ours "{branch = main; kind = branch;}", theirs "{kind = upToNextMajorVersion; minimumVersion = 1.6.0;}""#

    @Test("git merge with the driver: one branch pins a package to a branch, the other moves its version; the whole requirement is the conflict")
    func requirementKindGitMerge() throws {
        guard let binary = try slipway("requirementKindGitMerge") else { return }
        let (ours, theirs) = try Self.requirementSides()
        let git = try repository(binary: binary, ours: ours, theirs: theirs)
        let result = try gitMerge(git, binary: binary)
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.first == Self.requirementConflictLine)
        #expect(lines.count == 2 && lines[1].hasPrefix("error: ") && lines[1].hasSuffix(": 1 conflicting entry left between conflict markers; resolve them and 'git add' the file"))
        let merged = try String(contentsOfFile: git.path + "/" + Self.pbxproj, encoding: .utf8)
        #expect(merged == (try Self.requirementConflict(ours)))
        #expect(try git.git("status", "--porcelain").contains("UU \(Self.pbxproj)"))
    }

    @Test("the driver as git runs it (%O %A %B) on a requirement whose kind one side changed: exact output, base and theirs untouched")
    func requirementKindDriver() throws {
        guard let binary = try slipway("requirementKindDriver") else { return }
        let (ours, theirs) = try Self.requirementSides()
        for (first, second) in [(ours, theirs), (theirs, ours)] {
            let directory = try TemporaryDirectory(prefix: "pbx-merge")
            try directory.write("base", SampleProject.text)
            try directory.write("ours", first)
            try directory.write("theirs", second)
            let result = try CommandResult.run(binary, ["xcodeproj", "merge", "base", "ours", "theirs"], in: directory.path, environment: gitEnvironment(binary))
            #expect(result.status == 1)
            let merged = try String(contentsOfFile: directory.path + "/ours", encoding: .utf8)
            if first == ours {
                #expect(result.standardError == Self.requirementConflictLine + "\nerror: ours: 1 conflicting entry left between conflict markers; resolve them and 'git add' the file\n")
                #expect(merged == (try Self.requirementConflict(ours)))
            } else {
                #expect(result.standardError == #"conflict: 130000000000000000000001 /* XCRemoteSwiftPackageReference "swift-argument-parser" */ requirement: ours "{kind = upToNextMajorVersion; minimumVersion = 1.6.0;}", theirs "{branch = main; kind = branch;}""#
                    + "\nerror: ours: 1 conflicting entry left between conflict markers; resolve them and 'git add' the file\n")
                #expect(merged.contains("<<<<<<< ours\n\t\t\trequirement = {\n\t\t\t\tkind = upToNextMajorVersion;\n\t\t\t\tminimumVersion = 1.6.0;\n\t\t\t};\n=======\n\t\t\trequirement = {\n\t\t\t\tbranch = main;\n\t\t\t\tkind = branch;\n\t\t\t};\n>>>>>>> theirs\n"))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["base", "ours", "theirs"])
            #expect(try String(contentsOfFile: directory.path + "/base", encoding: .utf8) == SampleProject.text)
            #expect(try String(contentsOfFile: directory.path + "/theirs", encoding: .utf8) == second)
        }
    }

    @Test("a side with conflict markers: a line merge, the reason naming the line, exit 1, nothing lost")
    func markersInSide() throws {
        guard let binary = try slipway("markersInSide") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-merge")
        let marked = SampleProject.text.replacingOccurrences(of: "/* Begin PBXGroup section */\n", with: "/* Begin PBXGroup section */\n<<<<<<< HEAD\n")
        let line = (marked.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("<<<<<<<") } ?? 0) + 1
        let ours = try Self.edited { try $0.setBuildSetting("SWIFT_VERSION", to: "6.0", in: SampleProject.appDebug) }
        try directory.write("base", SampleProject.text)
        try directory.write("ours", ours)
        try directory.write("theirs", marked)
        let result = try CommandResult.run(binary, ["xcodeproj", "merge", "base", "ours", "theirs"], in: directory.path, environment: gitEnvironment(binary))
        #expect(result.status == 1)
        let reason = try Self.readError(marked, side: "theirs")
        #expect(reason.hasPrefix("the theirs version does not read as a project at line \(line), column 1: "))
        #expect(result.standardError == "error: ours: \(reason); merging line by line instead\n")
        let merged = try String(contentsOfFile: directory.path + "/ours", encoding: .utf8)
        #expect(merged.contains("SWIFT_VERSION = 6.0;"))
        #expect(merged.contains("<<<<<<< HEAD\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["base", "ours", "theirs"])
        #expect(try String(contentsOfFile: directory.path + "/base", encoding: .utf8) == SampleProject.text)
        #expect(try String(contentsOfFile: directory.path + "/theirs", encoding: .utf8) == marked)
    }

    @Test("a base that does not parse: git's line merge, the reason, exit 1")
    func unreadableBase() throws {
        guard let binary = try slipway("unreadableBase") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-merge")
        let ours = try Self.edited { try $0.setBuildSetting("SWIFT_VERSION", to: "6.0", in: SampleProject.appDebug) }
        let theirs = try Self.edited { try $0.setBuildSetting("MARKETING_VERSION", to: "2.0", in: SampleProject.appRelease) }
        let base = String(SampleProject.text.prefix(3000))
        try directory.write("base", base)
        try directory.write("ours", ours)
        try directory.write("theirs", theirs)
        let result = try CommandResult.run(binary, ["xcodeproj", "merge", "base", "ours", "theirs"], in: directory.path, environment: gitEnvironment(binary))
        #expect(result.status == 1)
        let reason = try Self.readError(base, side: "base")
        #expect(reason.hasPrefix("the base version does not read as a project at line "))
        #expect(result.standardError == "error: ours: \(reason); merging line by line instead\n")
        let merged = try String(contentsOfFile: directory.path + "/ours", encoding: .utf8)
        #expect(merged.contains("SWIFT_VERSION = 6.0;") && merged.contains("MARKETING_VERSION = 2.0;"))
        #expect(try String(contentsOfFile: directory.path + "/base", encoding: .utf8) == base)
        #expect(try String(contentsOfFile: directory.path + "/theirs", encoding: .utf8) == theirs)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["base", "ours", "theirs"])
    }

    @Test("a side that repeats an object's definition: merged on the graph with one definition, and a note saying so")
    func repeatedDefinition() throws {
        guard let binary = try slipway("repeatedDefinition") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-merge")
        let line = "\t\t0D0000000000000000000002 /* ContentView.swift in Sources */ = {isa = PBXBuildFile; fileRef = 0B0000000000000000000002 /* ContentView.swift */; };\n"
        let theirs = try Self.edited { try $0.setBuildSetting("MARKETING_VERSION", to: "2.0", in: SampleProject.appRelease) }
        try directory.write("base", SampleProject.text)
        try directory.write("ours", SampleProject.text.replacingOccurrences(of: line, with: line + line))
        try directory.write("theirs", theirs)
        let result = try CommandResult.run(binary, ["xcodeproj", "merge", "base", "ours", "theirs"], in: directory.path, environment: gitEnvironment(binary))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains(
            "note: ours: the ours version defines 0D0000000000000000000002 twice with the same value (left by a line merge); merged with one definition, as Xcode reads it"))
        #expect(try String(contentsOfFile: directory.path + "/ours", encoding: .utf8) == theirs)
    }

    /// The sample project with an odd key order in one configuration: it reads, but is not in
    /// Xcode's form.
    static let oddText = SampleProject.text.replacingOccurrences(
        of: "\t\t\t\tSDKROOT = iphoneos;\n\t\t\t\tVALIDATE_PRODUCT = YES;", with: "\t\t\t\tVALIDATE_PRODUCT = YES;\n\t\t\t\tSDKROOT = iphoneos;")

    /// Runs the driver as git does on three versions, in a fresh folder; returns its result, the
    /// merged text, and checks that base and theirs are untouched and nothing else was left.
    private func runDriver(_ binary: String, base: String, ours: String, theirs: String) throws -> (CommandResult, String) {
        let directory = try TemporaryDirectory(prefix: "pbx-merge")
        try directory.write("base", base)
        try directory.write("ours", ours)
        try directory.write("theirs", theirs)
        let result = try CommandResult.run(binary, ["xcodeproj", "merge", "base", "ours", "theirs"], in: directory.path, environment: gitEnvironment(binary))
        let merged = try String(contentsOfFile: directory.path + "/ours", encoding: .utf8)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["base", "ours", "theirs"])
        #expect(try String(contentsOfFile: directory.path + "/base", encoding: .utf8) == base)
        #expect(try String(contentsOfFile: directory.path + "/theirs", encoding: .utf8) == theirs)
        return (result, merged)
    }

    @Test("ours and theirs byte for byte equal (read once): each repeats a definition, a note for each side, ours' text with one definition")
    func equalSidesRepeatingADefinition() throws {
        guard let binary = try slipway("equalSidesRepeatingADefinition") else { return }
        let line = "\t\t0D0000000000000000000002 /* ContentView.swift in Sources */ = {isa = PBXBuildFile; fileRef = 0B0000000000000000000002 /* ContentView.swift */; };\n"
        let repeated = SampleProject.text.replacingOccurrences(of: line, with: line + line)
        let (result, merged) = try runDriver(binary, base: SampleProject.text, ours: repeated, theirs: repeated)
        #expect(result.status == 0)
        let note = " defines 0D0000000000000000000002 twice with the same value (left by a line merge); merged with one definition, as Xcode reads it\n"
        #expect(result.standardError == "note: ours: the ours version" + note + "note: ours: the theirs version" + note)
        #expect(result.standardOutput == "")
        #expect(merged == SampleProject.text)
    }

    @Test("three byte-equal versions that do not read: git's line merge, the reason naming the base, exit 1")
    func equalVersionsUnreadable() throws {
        guard let binary = try slipway("equalVersionsUnreadable") else { return }
        let broken = String(SampleProject.text.prefix(3000))
        let (result, merged) = try runDriver(binary, base: broken, ours: broken, theirs: broken)
        #expect(result.status == 1)
        let reason = try Self.readError(broken, side: "base")
        #expect(result.standardError == "error: ours: \(reason); merging line by line instead\n")
        #expect(merged == broken)
    }

    @Test("three byte-equal versions not in Xcode's form: ours comes back byte for byte, exit 0, nothing printed")
    func equalVersionsKeepTheirForm() throws {
        guard let binary = try slipway("equalVersionsKeepTheirForm") else { return }
        let (result, merged) = try runDriver(binary, base: Self.oddText, ours: Self.oddText, theirs: Self.oddText)
        #expect(result.status == 0)
        #expect(result.standardError == "" && result.standardOutput == "")
        #expect(merged == Self.oddText)
    }

    @Test("theirs equal to the base and in Xcode's form, ours not: ours written in Xcode's form")
    func theirsIsBaseCanonical() throws {
        guard let binary = try slipway("theirsIsBaseCanonical") else { return }
        let (result, merged) = try runDriver(binary, base: SampleProject.text, ours: Self.oddText, theirs: SampleProject.text)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(merged == SampleProject.text)
        let (odd, oddMerged) = try runDriver(binary, base: Self.oddText, ours: Self.oddText + "\n", theirs: Self.oddText)
        #expect(odd.status == 0)
        #expect(oddMerged == Self.oddText + "\n")
    }

    @Test("wrong arguments: a usage error naming what is expected")
    func wrongArguments() throws {
        guard let binary = try slipway("wrongArguments") else { return }
        let result = try CommandResult.run(binary, ["xcodeproj", "merge", "a", "b"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("expected three files, BASE OURS THEIRS (git passes %O %A %B), got 2; or use --install"))
    }
}
