import Basics
import Crypto
import Foundation
import Lanes
import Networking
import Steps
import Testing
import TestSupport
import TestThreads

/// A dry run plans what the run does and makes the read-only checks it can (issue 25, point 4):
/// the xcodebuild command lines it prints are the ones the run passes (checked against the
/// STAND-IN xcodebuild of XcodeLaneTests, which records its arguments), a failing check fails the
/// dry run without stopping the plan of the later steps, and nothing is written.
@Suite("dry run: plans and read-only checks", .dedicatedThreads)
struct PlatformDryRunTests {
    static let lane = """
        steps:
          - xcode.build: { project: App.xcodeproj, scheme: App, destinations: ["generic/platform=iOS Simulator"] }
            id: build
          - xcode.test: { project: App.xcodeproj, scheme: App, destinations: ["platform=iOS Simulator,name=iPhone 16,OS=18.2"] }
            id: test
          - xcode.archive: { project: App.xcodeproj, scheme: App, destinations: ["generic/platform=iOS"], xcode: "^16" }
            id: archive
        """

    /// The xcodebuild calls the stand-in recorded, as shell-quoted command lines.
    static func recordedCommandLines(_ calls: String) -> [String] {
        calls.components(separatedBy: "--\n").filter { !$0.isEmpty }.map { call in
            let arguments = call.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            return ProcessSpec(executable: "xcodebuild", arguments: arguments, environment: [:]).commandLine
        }
    }

    @Test("the xcodebuild lines a dry run prints are exactly the ones the run passes")
    func plannedLinesAreTheRunsLines() async throws {
        let project = try XcodeLaneTests.Project(["ios": Self.lane])
        project.fixture.environment = project.fixture.environment.removing("DEVELOPER_DIR")
        let root = project.fixture.path
        let before = try Snapshot.of(root)
        let dry = try await project.fixture.run("ios") { $0.isDryRun = true }
        #expect(dry.summary.status == .succeeded, "\(dry.console)")
        #expect(project.calls().isEmpty, "a dry run runs no xcodebuild")
        #expect(try Snapshot.of(root) == before, "a dry run writes nothing")
        let planned = dry.events.filter { $0.event == .plan }.flatMap { $0.effects ?? [] }
        let lines = planned.filter { $0.hasPrefix("process: xcodebuild ") }.map { String($0.dropFirst("process: ".count)) }
        #expect(lines == [
            "xcodebuild -project \(root)/App.xcodeproj -scheme App -destination 'generic/platform=iOS Simulator' build",
            "xcodebuild -project \(root)/App.xcodeproj -scheme App -destination 'generic/platform=iOS Simulator' -showBuildSettings -json (read the products' paths)",
            "xcodebuild -project \(root)/App.xcodeproj -scheme App -destination 'platform=iOS Simulator,name=iPhone 16,OS=18.2' -resultBundlePath \(root)/.slipway/results/ios-test.xcresult test",
            "xcodebuild -project \(root)/App.xcodeproj -scheme App -destination generic/platform=iOS -archivePath \(root)/build/App.xcarchive archive",
        ], "\(planned)")
        #expect(planned.contains("check: use the Xcode that xcode-select points to (no 'xcode:' option, no DEVELOPER_DIR)"))
        #expect(planned.contains("check: choose the Xcode matching '^16' in /Applications and set DEVELOPER_DIR to it"))
        #expect(planned.contains("write: .slipway/logs/ios-test-test.log (the raw xcodebuild log)"))

        // The real run (stand-ins) passes the same argument lists.
        try project.use(["build.log": "logs/build-clean.log", "test.log": "logs/xctest.log", "archive.log": "logs/archive.log",
                         "summary.json": "xcresult/summary-passing.json", "tests.json": "xcresult/tests-passing.json"])
        try project.scenario.write("build-settings.json", "[]")
        // The archive asks for an Xcode: a folder of stand-in Xcodes, as XcodeSelection reads them.
        try project.scenario.write("Applications/Xcode-16.2.app/Contents/version.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleShortVersionString</key><string>16.2</string><key>ProductBuildVersion</key><string>16C5032a</string></dict></plist>
            """)
        project.fixture.environment = project.fixture.environment.merging([
            "SLIPWAY_XCODE_APPLICATIONS": project.scenario.path + "/Applications",
        ])
        let real = try await project.fixture.run("ios")
        #expect(real.summary.status == .succeeded, "\(real.console)")
        let ran = Self.recordedCommandLines(project.calls())
        let plannedRuns = lines.map { $0.replacingOccurrences(of: " (read the products' paths)", with: "") }
        #expect(ran == plannedRuns, "ran \(ran)\nplanned \(plannedRuns)")
    }

    /// `slipway run LANE --dry-run` of the lanes in `directory`, validated and planned as on macOS.
    static func dryRunAsOnMacOS(_ lane: String, in directory: String, environment: Environment) async throws -> (RunSummary, BufferedOutput) {
        let workspace = LaneWorkspace(projectDirectory: directory, fileSystem: LocalFileSystem(),
                                      processRunner: LocalProcessRunner(), environment: environment,
                                      stepServices: StepServices(httpClient: SystemHTTPClient()), platform: .macOS)
        let console = BufferedOutput()
        var options = LaneRunner.Options()
        options.isDryRun = true
        let summary = try await workspace.run(lane, options: options, reporters: [ConsoleReporter(output: console, style: .plain)])
        return (summary, console)
    }

    @Test("a dry run reports every step whose read-only check fails, plans the rest, and changes nothing")
    func failingChecksAreAllListed() async throws {
        let repository = try GitFixture(prefix: "slipway-dry-checks")
        try repository.write("App.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ }\n")
        try repository.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", XcodeLaneTests.scheme)
        try repository.write("lanes/ios.yml", """
            inputs:
              scheme: { default: Ap }
            steps:
              - git.ensure-clean
              - xcode.test: { project: App.xcodeproj, scheme: "${{ inputs.scheme }}" }
                id: test
              - run: echo after
                id: after
            """)
        try repository.commit("app", files: ["README": "app\n"])
        try repository.write("README", "changed\n")
        try repository.write("notes.txt", "untracked\n")
        let before = try Snapshot.of(repository.path)
        let (summary, console) = try await Self.dryRunAsOnMacOS("ios", in: repository.path, environment: try LaneFixture().environment)
        #expect(summary.status == .failed)
        #expect(summary.steps.map(\.status) == [.failed, .failed, .planned], "\(console.text)")
        #expect(console.text.contains("""
            ✗ git.ensure-clean would fail
                the working tree has 2 uncommitted change(s):
                   M README
                  ?? notes.txt
                Commit or stash them first, or set allow-untracked: true if only untracked files remain.
            """), "\(console.text)")
        #expect(console.text.contains("""
            ✗ test would fail
                No scheme 'Ap' in 'App.xcodeproj' (its schemes: 'App'). Did you mean 'App'?
            """), "\(console.text)")
        #expect(console.text.contains("    would process: /bin/sh -e -c 'echo after' (in \(repository.path))\n✓ after planned"), "\(console.text)")
        #expect(console.text.contains("✗ lane 'ios': the dry run found 2 step(s) that would fail (git.ensure-clean, test); nothing was changed. Fix them, then run the lane."),
                "\(console.text)")
        #expect(try Snapshot.of(repository.path) == before, "a dry run writes nothing, not even git's index")
    }

    @Test("values from earlier steps' outputs are not known in a dry run: the steps that use them say so instead of failing")
    func earlierOutputsAreNotCheckedAsValues() async throws {
        let repository = try GitFixture(prefix: "slipway-dry-outputs")
        try repository.write("App.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ }\n")
        try repository.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", XcodeLaneTests.scheme)
        try repository.write("lanes/ios.yml", """
            secrets: [ASC_KEY]
            steps:
              - run: echo team=ABCDE12345
                id: signing
              - xcode.archive: { project: App.xcodeproj, scheme: App }
                id: archive
              - xcode.export:
                  archive: "${{ steps.archive.outputs.archive }}"
                  method: app-store-connect
                  team-id: "${{ steps.signing.outputs.team }}"
                  signing-certificate: "${{ steps.signing.outputs.certificate }}"
                  profiles: "${{ steps.signing.outputs.profiles }}"
                id: export
              - appstore.upload:
                  ipa: "${{ steps.export.outputs.path }}"
                  key-id: ABC123DEFG
                  individual: true
                  key: "${{ secrets.ASC_KEY }}"
            """)
        try repository.commit("app", files: ["README": "app\n"])
        var environment = try LaneFixture().environment
        environment.variables["ASC_KEY"] = P256.Signing.PrivateKey().pemRepresentation
        let before = try Snapshot.of(repository.path)
        let (summary, console) = try await Self.dryRunAsOnMacOS("ios", in: repository.path, environment: environment)
        #expect(summary.steps.map(\.status) == [.planned, .planned, .planned, .planned], "\(console.text)")
        #expect(console.text.contains("would network: upload the file steps.export.outputs.path names, once that step has made it"), "\(console.text)")
        #expect(try Snapshot.of(repository.path) == before)
    }

    @Test("a dry run of signing.sync lists a directory storage: a file where the folder should be would fail")
    func signingStorageIsChecked() async throws {
        let lane = """
            steps:
              - signing.sync: { type: app-store, bundle-ids: [com.example.app], storage: certificates, passphrase: x, readonly: true, install: none }
                id: signing
            """
        let fixture = try LaneFixture(["sign": lane])
        try fixture.write("certificates", "not a folder\n")
        let before = try Snapshot.of(fixture.path)
        let broken = try await fixture.run("sign") { $0.isDryRun = true }
        #expect(broken.summary.status == .failed)
        #expect(broken.summary.steps.first?.error == "The signing storage '\(fixture.path)/certificates' could not be reached: it is a file, not a directory. "
                + "Check the address and your access; a read-only run can use the last local clone.", "\(broken.console)")
        #expect(broken.console.contains("✗ signing would fail\n"), "\(broken.console)")
        #expect(try Snapshot.of(fixture.path) == before)

        try FileManager.default.removeItem(atPath: fixture.path + "/certificates")
        try FileManager.default.createDirectory(atPath: fixture.path + "/certificates", withIntermediateDirectories: false)
        let planned = try await fixture.run("sign") { $0.isDryRun = true }
        #expect(planned.summary.status == .succeeded, "\(planned.console)")
        #expect(planned.status("signing") == .planned)
    }
}

extension Environment {
    /// The environment without `name`.
    fileprivate func removing(_ name: String) -> Environment {
        var variables = self.variables
        variables[name] = nil
        return Environment(variables)
    }
}
