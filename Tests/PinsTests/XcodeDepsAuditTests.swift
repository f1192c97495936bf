import Basics
import Foundation
@testable import Pins
import Testing
import TestSupport
import TestThreads

/// `deps verify` on an app: Xcode's Package.resolved against the requirements in the project.
@Suite(.dedicatedThreads) struct XcodeDepsAuditTests {
    typealias Fixtures = XcodeDepsFixtures

    func project(resolvedVersion: Int = 3, inWorkspace: Bool = false, pbxproj: String = Fixtures.pbxproj()) throws -> PinsProject {
        let project = try PinsProject()
        project.extraEnvironment["PATH"] = "/usr/bin:/bin"
        try Fixtures.write(into: project, resolvedVersion: resolvedVersion, inWorkspace: inWorkspace, pbxproj: pbxproj)
        return project
    }

    func audit(_ project: PinsProject) async throws -> DepsReport {
        try await DependencyAuditor(context: project.context(online: false)).audit()
    }

    func auditError(_ project: PinsProject) async -> String? {
        await thrownText { _ = try await DependencyAuditor(context: project.context(online: false)).audit() }
    }

    /// The pbxproj with the requirement of the remote at `index` replaced.
    func changed(_ index: Int, _ requirement: [String], url: String? = nil) -> String {
        var remotes = Fixtures.remotes
        remotes[index].requirement = requirement
        if let url { remotes[index].url = url }
        return Fixtures.pbxproj(remotes: remotes)
    }

    func line(_ index: Int) -> Int { Fixtures.line(of: Fixtures.remotes[index].id, in: Fixtures.pbxproj()) }

    func advice(_ command: String) -> String {
        "Resolve packages in Xcode (File > Packages > Resolve Package Versions) or run '\(command)', then commit Package.resolved."
    }

    static let noSwiftNote = "App.xcodeproj/project.pbxproj: the requirements inside its local packages were not checked against "
                + "Package.resolved: no 'swift' on PATH."

    static let cases: [(version: Int, inWorkspace: Bool)] = [(1, false), (2, false), (3, false), (1, true), (2, true), (3, true)]

    @Test(arguments: cases)
    func everyRequirementKindIsCheckedAndPasses(version: Int, inWorkspace: Bool) async throws {
        let project = try project(resolvedVersion: version, inWorkspace: inWorkspace)
        let report = try await audit(project)
        let resolved = inWorkspace ? Fixtures.workspaceResolved : Fixtures.projectResolved
        #expect(report.failures.map(\.summary) == [])
        #expect(report.files == [resolved, "App.xcodeproj/project.pbxproj"])
        let requirements = report.findings.filter { $0.check == "requirement" }
        #expect(requirements.map(\.subject) == Fixtures.remotes.map(\.url))
        #expect(requirements.map(\.expected) == [
            "5.0.0..<6.0.0 (up to next major from 5.0.0) as App.xcodeproj/project.pbxproj line \(line(0)) asks",
            "1.3.0..<1.4.0 (up to next minor from 1.3.0) as App.xcodeproj/project.pbxproj line \(line(1)) asks",
            "exactly 1.1.0 as App.xcodeproj/project.pbxproj line \(line(2)) asks",
            "1.10.0..<1.18.0 as App.xcodeproj/project.pbxproj line \(line(3)) asks",
            "branch 'master' as App.xcodeproj/project.pbxproj line \(line(4)) asks",
            "revision \(Fixtures.swiftLintRevision) as App.xcodeproj/project.pbxproj line \(line(5)) asks",
        ])
        #expect(requirements.allSatisfy { $0.file == resolved })
        #expect(report.findings.filter { $0.check == "local-package" }.map(\.found) == ["Package.swift"])
        #expect(report.notes == [Self.noSwiftNote])
    }

    @Test(arguments: [false, true])
    func aRequirementThePinNoLongerMeetsFails(inWorkspace: Bool) async throws {
        let resolved = inWorkspace ? Fixtures.workspaceResolved : Fixtures.projectResolved
        let command = inWorkspace ? "xcodebuild -resolvePackageDependencies -workspace App.xcworkspace -scheme <scheme>"
            : "xcodebuild -resolvePackageDependencies -project App.xcodeproj"
        let edits: [(Int, [String], String)] = [
            (0, ["kind = upToNextMajorVersion;", "minimumVersion = 6.0.0;"],
             "'https://github.com/jpsim/Yams.git': expected 6.0.0..<7.0.0 (up to next major from 6.0.0) as "
                + "App.xcodeproj/project.pbxproj line \(line(0)) asks, found 5.0.6 (0d9ee7e)."),
            (1, ["kind = upToNextMinorVersion;", "minimumVersion = 1.2.0;"],
             "'https://github.com/apple/swift-argument-parser': expected 1.2.0..<1.3.0 (up to next minor from 1.2.0) as "
                + "App.xcodeproj/project.pbxproj line \(line(1)) asks, found 1.3.1 (c8ed701)."),
            (2, ["kind = exactVersion;", "version = 1.1.1;"],
             "'https://github.com/apple/swift-collections.git': expected exactly 1.1.1 as App.xcodeproj/project.pbxproj "
                + "line \(line(2)) asks, found 1.1.0 (94cf62b)."),
            (3, ["kind = versionRange;", "maximumVersion = 1.17.4;", "minimumVersion = 1.10.0;"],
             "'https://github.com/pointfreeco/swift-snapshot-testing': expected 1.10.0..<1.17.4 as "
                + "App.xcodeproj/project.pbxproj line \(line(3)) asks, found 1.17.4 (6d932a7)."),
            (4, ["branch = develop;", "kind = branch;"],
             "'https://github.com/kishikawakatsumi/KeychainAccess': expected branch 'develop' as "
                + "App.xcodeproj/project.pbxproj line \(line(4)) asks, found branch 'master' (e0c7eeb)."),
            (5, ["kind = revision;", "revision = \(String(repeating: "b", count: 40));"],
             "'https://github.com/realm/SwiftLint': expected revision \(String(repeating: "b", count: 40)) as "
                + "App.xcodeproj/project.pbxproj line \(line(5)) asks, found revision \(Fixtures.swiftLintRevision)."),
            (4, ["kind = upToNextMajorVersion;", "minimumVersion = 24.0.0;"],
             "'https://github.com/kishikawakatsumi/KeychainAccess': expected 24.0.0..<25.0.0 (up to next major from "
                + "24.0.0) as App.xcodeproj/project.pbxproj line \(line(4)) asks, found branch 'master' (e0c7eeb)."),
        ]
        for (index, requirement, message) in edits {
            let project = try project(inWorkspace: inWorkspace, pbxproj: changed(index, requirement))
            let before = try Snapshot.of(project.path)
            let report = try await audit(project)
            #expect(report.failures.map(\.summary) == ["\(resolved): requirement \(message) \(advice(command))"])
            #expect(try Snapshot.of(project.path) == before)
        }
    }

    @Test func aRequirementWithNoPinFailsAndALocalPackageNeedsNone() async throws {
        var remotes = Fixtures.remotes
        remotes.append(Fixtures.Remote(id: "AB0000000000000000000017", url: "git@github.com:onevcat/Kingfisher.git",
                                       requirement: ["kind = upToNextMajorVersion;", "minimumVersion = 8.0.0;"],
                                       identity: "kingfisher", location: "", revision: ""))
        let text = Fixtures.pbxproj(remotes: remotes)
        let project = try project(pbxproj: text)
        let report = try await audit(project)
        let line = Fixtures.line(of: "AB0000000000000000000017", in: text)
        #expect(report.failures.map(\.summary) == [
            "\(Fixtures.projectResolved): requirement 'git@github.com:onevcat/Kingfisher.git': expected a pin for 8.0.0..<9.0.0 "
                + "(up to next major from 8.0.0) as App.xcodeproj/project.pbxproj line \(line) asks, found no pin. "
                + advice("xcodebuild -resolvePackageDependencies -project App.xcodeproj"),
        ])
        #expect(!report.findings.contains { $0.subject.contains("AppCore") && $0.check == "requirement" })
    }

    /// Identity and location are compared as SwiftPM does: `.git`, a trailing `/` and case do
    /// not count; a pin for another repository with the same name (a fork) does.
    @Test func urlsAreMatchedAsSwiftPMCanonicalisesThem() async throws {
        let same = try project(pbxproj: changed(0, Fixtures.remotes[0].requirement, url: "https://GitHub.com/jpsim/Yams/"))
        #expect(try await audit(same).failures.map(\.summary) == [])
        let fork = try project(pbxproj: changed(0, Fixtures.remotes[0].requirement, url: "https://github.com/someone/Yams"))
        #expect(try await audit(fork).failures.map(\.summary) == [
            "\(Fixtures.projectResolved): requirement 'https://github.com/someone/Yams': expected a pin for "
                + "https://github.com/someone/Yams (App.xcodeproj/project.pbxproj line \(line(0))), found a pin for "
                + "https://github.com/jpsim/Yams.git. " + advice("xcodebuild -resolvePackageDependencies -project App.xcodeproj"),
        ])
        #expect(PackageLocation.canonical("git@github.com:jpsim/Yams.git") == PackageLocation.canonical("https://github.com/jpsim/yams/"))
    }

    /// A local package's own remote dependencies land in the app's Package.resolved too; with a
    /// toolchain, each is checked against its pin (read with dump-package, cached).
    @Test func aLocalPackagesRequirementsAreCheckedWithTheToolchain() async throws {
        let project = try project()
        project.extraEnvironment["PATH"] = nil
        let manifest = { (from: String) in """
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "AppCore",
                dependencies: [.package(url: "https://github.com/jpsim/Yams.git", from: "\(from)")],
                targets: [.target(name: "AppCore", dependencies: ["Yams"])]
            )

            """ }
        try project.write("Packages/AppCore/Package.swift", manifest("5.0.0"))
        let report = try await audit(project)
        #expect(report.failures.map(\.summary) == [])
        #expect(report.findings.contains { $0.ok && $0.subject == "yams" && $0.expected == "5.0.0..<6.0.0 as Packages/AppCore/Package.swift asks" })
        #expect(report.notes == [])
        try project.write("Packages/AppCore/Package.swift", manifest("6.0.0"))
        #expect(try await audit(project).failures.map(\.summary) == [
            "\(Fixtures.projectResolved): requirement 'yams': expected 6.0.0..<7.0.0 as Packages/AppCore/Package.swift asks, "
                + "found 5.0.6 (0d9ee7e). " + advice("xcodebuild -resolvePackageDependencies -project App.xcodeproj"),
        ])
    }

    /// A project whose packages no committed Package.resolved pins gets a note, not silence.
    @Test func aProjectWithPackagesButNoPackageResolvedGetsANote() async throws {
        let project = try project()
        try FileManager.default.removeItem(atPath: project.path + "/App.xcodeproj/project.xcworkspace")
        let report = try await audit(project)
        #expect(report.isOK)
        #expect(report.files == [])
        #expect(report.notes == [
            "App.xcodeproj has 6 package requirement(s) but no Package.resolved "
                + "(App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved): nothing pins their versions. "
                + "Commit the Package.resolved Xcode writes so that every machine builds the same versions.",
            "No Package.resolved, Podfile.lock, Cartfile.resolved or Gemfile.lock in '\(project.path)'.",
        ])
    }

    @Test func aMissingLocalPackageIsReported() async throws {
        let project = try project()
        try FileManager.default.removeItem(atPath: project.path + "/Packages/AppCore")
        let line = Fixtures.line(of: Fixtures.localID, in: Fixtures.pbxproj())
        let report = try await audit(project)
        #expect(report.failures.map(\.summary) == [
            "App.xcodeproj/project.pbxproj: local-package 'Packages/AppCore': expected a package folder (line \(line)), found "
                + "no folder 'Packages/AppCore'. Restore the package at 'Packages/AppCore' (check out its submodule, or commit "
                + "it), or remove the local package from the project in Xcode.",
        ])
        try project.write("Packages/AppCore/README.md", "not a package\n")
        #expect(try await audit(project).failures.map(\.found) == ["a folder without Package.swift"])
    }

    /// Every project a workspace lists is held to the workspace's Package.resolved; a listed
    /// project that is not there (Pods not installed) is a note, not a silent pass.
    @Test func aWorkspaceAppliesEveryListedProject() async throws {
        let project = try project(inWorkspace: true)
        try project.write("App.xcworkspace/contents.xcworkspacedata", Fixtures.workspaceContents.replacingOccurrences(
            of: "</Workspace>", with: """
               <FileRef
                  location = "group:Tools/Tools.xcodeproj">
               </FileRef>
               <FileRef
                  location = "group:Pods/Pods.xcodeproj">
               </FileRef>
            </Workspace>
            """))
        let toolsRemote = Fixtures.Remote(id: "AB0000000000000000000031", url: "https://github.com/nicklockwood/SwiftFormat",
                                          requirement: ["kind = exactVersion;", "version = 0.54.0;"], identity: "swiftformat",
                                          location: "", revision: "")
        let tools = Fixtures.pbxproj(remotes: [toolsRemote], localPath: nil)
        try project.write("Tools/Tools.xcodeproj/project.pbxproj", tools)
        let report = try await audit(project)
        #expect(report.failures.map(\.summary) == [
            "\(Fixtures.workspaceResolved): requirement 'https://github.com/nicklockwood/SwiftFormat': expected a pin for exactly "
                + "0.54.0 as Tools/Tools.xcodeproj/project.pbxproj line \(Fixtures.line(of: toolsRemote.id, in: tools)) asks, "
                + "found no pin. " + advice("xcodebuild -resolvePackageDependencies -workspace App.xcworkspace -scheme <scheme>"),
        ])
        #expect(report.notes == [
            "\(Fixtures.workspaceResolved): 'Pods/Pods.xcodeproj' is listed in the workspace but is not there; its package "
                + "requirements were not checked.",
            Self.noSwiftNote,
        ])
        #expect(XcodeWorkspaceContents.projects(Fixtures.workspaceContents + "<FileRef location = \"container:../Other/O.xcodeproj\"/>",
                                                workspace: "/r/W.xcworkspace") == ["/r/App.xcodeproj", "/Other/O.xcodeproj"])
        let named = "<Group name = \"location = 'x'\" location = \"group:Apps\"><FileRef location = \"group:A&amp;B.xcodeproj\"/></Group>"
        #expect(XcodeWorkspaceContents.projects(named, workspace: "/r/W.xcworkspace") == ["/r/Apps/A&B.xcodeproj"])
    }

    /// ElementX writes `exactVersion` `version = 1.2;`; Xcode resolves it as 1.2.0.
    @Test func aTwoPartVersionIsReadAsXcodeReadsIt() async throws {
        let project = try project(pbxproj: changed(2, ["kind = exactVersion;", "version = 1.1;"]))
        let report = try await audit(project)
        #expect(report.failures.map(\.summary) == [])
        #expect(report.findings.contains { $0.ok && $0.expected.hasPrefix("exactly 1.1.0 as App.xcodeproj/project.pbxproj") })
    }

    @Test func preReleasesFollowSwiftPMsRangeRule() throws {
        func version(_ text: String) throws -> SemanticVersion { try SemanticVersion.parse(text) }
        typealias Requirement = XcodeRemotePackage.Requirement
        #expect(!Requirement.contains(try version("1.5.0-beta.1"), lower: try version("1.0.0"), upper: try version("2.0.0")))
        #expect(Requirement.contains(try version("1.0.0-beta.2"), lower: try version("1.0.0-beta.1"), upper: try version("2.0.0")))
        #expect(!Requirement.contains(try version("2.0.0-beta.1"), lower: try version("1.0.0-beta.1"), upper: try version("2.0.0")))
        #expect(Requirement.contains(try version("1.9.9"), lower: try version("1.0.0"), upper: try version("2.0.0")))
        #expect(XcodeRemotePackage.version("1.2") == (try version("1.2.0")), "Xcode resolves exactVersion 1.2 as 1.2.0")
        #expect(XcodeRemotePackage.version("7") == (try version("7.0.0")))
        #expect(XcodeRemotePackage.version("1.2-beta.1") == (try version("1.2.0-beta.1")))
        #expect(XcodeRemotePackage.version("26.07.22") == (try version("26.7.22")), "SwiftPM reads 07 as 7")
        #expect(XcodeRemotePackage.version("1.2.3.4") == nil)
        #expect(XcodeRemotePackage.version("1..2") == nil)
    }

    @Test func aMalformedRequirementIsRefusedWithFileLineAndWhatToDo() async throws {
        let fix = "Set the package's dependency rule again in Xcode (the project's Package Dependencies tab), or correct the "
            + "'requirement' entry by hand."
        let cases: [([String], String)] = [
            (["kind = upToNextMajor;", "minimumVersion = 5.0.0;"],
             "has kind 'upToNextMajor', which is not one of upToNextMajorVersion, upToNextMinorVersion, exactVersion, "
                + "versionRange, branch, revision"),
            (["kind = upToNextMajorVersion;"], "(kind upToNextMajorVersion) has no 'minimumVersion'"),
            (["kind = exactVersion;", "version = 5.x;"], "has version '5.x', which is not a version like 1.2.3"),
            (["kind = versionRange;", "maximumVersion = 5.0.0;", "minimumVersion = 6.0.0;"],
             "has minimumVersion 6.0.0 not below maximumVersion 5.0.0"),
        ]
        for (requirement, reason) in cases {
            let project = try project(pbxproj: changed(0, requirement))
            let before = try Snapshot.of(project.path)
            #expect(await auditError(project) == "'App.xcodeproj/project.pbxproj' line \(line(0)) cannot be read: the "
                + "requirement of 'https://github.com/jpsim/Yams.git' \(reason). \(fix)")
            #expect(try Snapshot.of(project.path) == before)
        }
        let broken = try project(pbxproj: "// !$*UTF8*$!\n{\n<<<<<<< HEAD\n}\n")
        #expect(await auditError(broken) == "'App.xcodeproj/project.pbxproj' line 3 cannot be read: git merge-conflict marker "
            + "'<<<<<<< HEAD' in the project file; resolve the conflict, then run again. Its package requirements cannot be "
            + "checked until Xcode can open it.")
    }

    /// Through the binary: the verdict, the exit status, and nothing written.
    @Test func depsVerifyFailsOnAnAppWhoseRequirementChanged() throws {
        let project = try project(pbxproj: changed(0, ["kind = upToNextMajorVersion;", "minimumVersion = 6.0.0;"]))
        let before = try Snapshot.of(project.path)
        let result = try project.slipway(["deps", "verify"])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardOutput == """
            ✗ \(Fixtures.projectResolved): 7 check(s), 1 failed
                \(Fixtures.projectResolved): requirement 'https://github.com/jpsim/Yams.git': expected 6.0.0..<7.0.0 (up to next major from 6.0.0) as App.xcodeproj/project.pbxproj line \(line(0)) asks, found 5.0.6 (0d9ee7e). \(advice("xcodebuild -resolvePackageDependencies -project App.xcodeproj"))
            ✓ App.xcodeproj/project.pbxproj: 1 check(s), 0 failed
            note: \(Self.noSwiftNote)

            """)
        #expect(try Snapshot.of(project.path) == before)
        try project.write("App.xcodeproj/project.pbxproj", changed(0, ["kind = upToNextMajor;", "minimumVersion = 5.0.0;"]))
        let malformed = try project.slipway(["deps", "verify"])
        #expect(malformed.status == 2)
        #expect(malformed.standardError.hasPrefix("error: 'App.xcodeproj/project.pbxproj' line \(line(0)) cannot be read: "))
    }

    /// Every project of the shared real-world corpus reads without a false "malformed": each
    /// package reference Xcode wrote is one of the known requirement kinds.
    @Test func everyCorpusProjectsPackagesAreRead() throws {
        guard let corpus = Corpus.pbxprojDirectory else {
            print("SKIPPED everyCorpusProjectsPackagesAreRead: the pbxproj corpus (../shared/corpus/pbxproj or $SLIPWAY_CORPUS) is absent")
            return
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus + "/files")
            .filter { $0.hasSuffix(".pbxproj") && !$0.contains("ProjectInMergeConflict") }.sorted()
        #expect(names.count >= 30)
        let folder = try TemporaryDirectory(prefix: "slipway-deps-corpus")
        var remotes = 0
        for name in names {
            let bundle = folder.path + "/" + name.dropLast(".pbxproj".count) + ".xcodeproj"
            try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: corpus + "/files/" + name, toPath: bundle + "/project.pbxproj")
            let packages = try XcodeProjectPackages.read(bundle: bundle, fileSystem: LocalFileSystem(), display: { $0 })
            remotes += packages.remote.count
        }
        // 26 XCRemoteSwiftPackageReference objects, of which DuckDuckGo-macOS lists only 10 of its 15
        // in `packageReferences` (Xcode leaves the others behind and does not resolve them).
        #expect(remotes == 21, "\(remotes) package references were read")
    }
}
