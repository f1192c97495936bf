import Basics
import Foundation
import Lanes
import Steps
import Testing
import TestSupport
import TestThreads

/// The xcode.* steps end to end in real lanes, validated as on macOS (the platform is injected)
/// and run against STAND-IN `xcodebuild` and `xcrun` scripts (Fixtures/xcode-standin, labelled as
/// such) that check their arguments, replay fixture logs and result-bundle JSON written from the
/// documented formats, and write what xcodebuild would. Nothing here runs a real Xcode.
@Suite("xcode.* steps with stand-in xcodebuild and xcrun", .dedicatedThreads)
struct XcodeLaneTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
    static let standins = here + "/Fixtures/xcode-standin"
    static let xcodeFixtures = here + "/../XcodeTests/Fixtures"

    static let scheme = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Scheme LastUpgradeVersion = "1620" version = "1.7">
           <BuildAction parallelizeBuildables = "YES" buildImplicitDependencies = "YES">
              <BuildActionEntries>
                 <BuildActionEntry buildForTesting = "YES" buildForRunning = "YES" buildForArchiving = "YES">
                    <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "A1B2C3D4E5F60718293A4B5C"
                       BuildableName = "App.app" BlueprintName = "App" ReferencedContainer = "container:App.xcodeproj">
                    </BuildableReference>
                 </BuildActionEntry>
              </BuildActionEntries>
           </BuildAction>
           <ArchiveAction buildConfiguration = "Release" revealArchiveInOrganizer = "YES"/>
        </Scheme>
        """

    static let archivePlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>ApplicationProperties</key>
            <dict>
                <key>ApplicationPath</key><string>Applications/App.app</string>
                <key>CFBundleIdentifier</key><string>com.example.app</string>
                <key>CFBundleShortVersionString</key><string>1.4.0</string>
                <key>CFBundleVersion</key><string>42</string>
                <key>Team</key><string>ABCDE12345</string>
            </dict>
            <key>Name</key><string>App</string>
            <key>SchemeName</key><string>App</string>
        </dict>
        </plist>
        """

    /// A project folder with App.xcodeproj (one shared scheme) and a scenario folder the stand-ins
    /// read; the stand-ins come first on PATH.
    struct Project {
        let fixture: LaneFixture
        let scenario: TemporaryDirectory

        init(_ lanes: [String: String], platform: Platform = .macOS, secrets: [String: String] = [:]) throws {
            scenario = try TemporaryDirectory(prefix: "slipway-xcode-scenario")
            fixture = try LaneFixture(lanes, environment: [
                "PATH": XcodeLaneTests.standins + ":" + (Environment.current["PATH"] ?? "/usr/bin:/bin"),
                "SLIPWAY_STANDIN": scenario.path,
            ].merging(secrets) { $1 })
            fixture.platform = platform
            try fixture.write("App.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ }\n")
            try fixture.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", XcodeLaneTests.scheme)
            try scenario.write("archive-Info.plist", XcodeLaneTests.archivePlist)
        }

        /// Copies fixture files of the Xcode module's tests into the scenario.
        func use(_ files: [String: String]) throws {
            for (name, fixture) in files {
                try scenario.write(name, try String(contentsOfFile: XcodeLaneTests.xcodeFixtures + "/" + fixture, encoding: .utf8))
            }
        }

        func calls() -> String { (try? String(contentsOfFile: scenario.path + "/calls.txt", encoding: .utf8)) ?? "" }
    }

    @Test("on Linux every xcode.* step is refused at validation, naming the step, and nothing runs")
    func refusedOnLinux() async throws {
        let project = try Project(["ios": """
            steps:
              - xcode.test: { project: App.xcodeproj, scheme: App }
              - xcode.archive: { project: App.xcodeproj, scheme: App }
            """], platform: .linux)
        #expect(await project.fixture.problems("ios") == [
            "lanes/ios.yml:2:5: error: step 'xcode.test' runs only on macos, not on linux; run this lane on macos or remove the step; to check this lane from linux, run 'slipway validate ios --platform macos' or 'slipway run ios --dry-run --platform macos'",
            "lanes/ios.yml:3:5: error: step 'xcode.archive' runs only on macos, not on linux; run this lane on macos or remove the step; to check this lane from linux, run 'slipway validate ios --platform macos' or 'slipway run ios --dry-run --platform macos'",
        ])
        #expect(project.calls().isEmpty)
    }

    @Test("build, test (failures, a flaky test), archive and export: outputs, JUnit, annotations, the raw log")
    func wholeLane() async throws {
        let project = try Project(["ios": """
            steps:
              - xcode.build: { project: App.xcodeproj, scheme: App, destinations: ["generic/platform=iOS Simulator"] }
                id: build
              - xcode.test:
                  project: App.xcodeproj
                  scheme: App
                  destinations: ["platform=iOS Simulator,name=iPhone 16,OS=18.2"]
                  retries: 2
                id: test
                continue-on-error: true
              - xcode.archive: { project: App.xcodeproj, scheme: App, destinations: ["generic/platform=iOS"] }
                id: archive
              - xcode.export: { archive: "${{ steps.archive.outputs.archive }}", method: ad-hoc, team-id: ABCDE12345 }
                id: export
            """])
        try project.use(["build.log": "logs/build-clean.log", "test.log": "logs/xctest.log", "archive.log": "logs/archive.log",
                         "summary.json": "xcresult/summary-mixed.json",
                         "tests.json": "xcresult/tests-mixed.json"])
        try project.scenario.write("build-settings.json", """
            [{"target": "App", "buildSettings": {"BUILT_PRODUCTS_DIR": "/dd/Build/Products/Debug-iphonesimulator", "FULL_PRODUCT_NAME": "App.app"}}]
            """)
        try project.scenario.write("test.status", "65")
        try project.scenario.write("-exportArchive.log", "Exported App to: build/export\n** EXPORT SUCCEEDED **\n")
        let junit = project.fixture.path + "/junit.xml", annotations = BufferedOutput()
        let outcome = try await project.fixture.run("ios", extraReporters: [
            JUnitReporter(path: junit, fileSystem: LocalFileSystem()), GitHubActionsReporter(output: annotations),
        ])
        #expect(outcome.status("build") == .succeeded)
        #expect(outcome.outputs("build")["products"] == "/dd/Build/Products/Debug-iphonesimulator/App.app")
        #expect(project.calls().contains("-scheme\nApp\n-destination\ngeneric/platform=iOS Simulator\n-showBuildSettings\n-json\n--"))
        #expect(outcome.outputs("build")["log"] == ".slipway/logs/ios-build-build.log")
        let raw = try String(contentsOfFile: project.fixture.path + "/.slipway/logs/ios-build-build.log", encoding: .utf8)
        #expect(raw == (try String(contentsOfFile: project.scenario.path + "/build.log", encoding: .utf8)))

        #expect(outcome.status("test") == .failed)
        let tests = outcome.outputs("test")
        #expect(tests.isEmpty)  // a failed step hands on no outputs; its error and the reports say what failed
        let error = outcome.summary.steps.first { $0.id == "test" }?.error ?? ""
        #expect(error.hasPrefix("4 test(s) failed:\n  CheckoutTests.testCheckout(): CheckoutTests.swift:42: XCTAssertEqual failed"))
        #expect(error.hasSuffix("The raw log is .slipway/logs/ios-test-test.log."))
        #expect(project.calls().contains("-retry-tests-on-failure\n-test-iterations\n3\n"))

        #expect(outcome.outputs("archive")["bundle-id"] == "com.example.app")
        #expect(outcome.outputs("archive")["version"] == "1.4.0" && outcome.outputs("archive")["build-number"] == "42")
        #expect(outcome.outputs("export")["path"] == "build/export/App.ipa")
        let used = try String(contentsOfFile: project.scenario.path + "/used-ExportOptions.plist", encoding: .utf8)
        #expect(used.contains("<key>method</key>\n\t<string>release-testing</string>"))
        #expect(outcome.console.contains("ad-hoc"))

        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="ios/test: ShopTests.CheckoutTests""#))
        #expect(xml.contains(#"name="testCheckout()""#) && xml.contains("<failure message=\"XCTAssertEqual failed"))
        #expect(annotations.text.contains("::error file=CheckoutTests.swift,line=42,title=ShopTests.CheckoutTests.testCheckout() failed::XCTAssertEqual failed"))
        #expect(outcome.console.contains("✔") || outcome.console.contains("Compiling"))
    }

    @Test("passing tests: counts, the result bundle and coverage as outputs")
    func passingTests() async throws {
        let project = try Project(["t": """
            steps:
              - xcode.test: { project: App.xcodeproj, scheme: App, coverage: true, parallel: false }
                id: test
            """])
        try project.use(["summary.json": "xcresult/summary-passing.json", "tests.json": "xcresult/tests-passing.json",
                         "coverage.json": "xcresult/coverage.json", "test.log": "logs/xctest.log"])
        let outcome = try await project.fixture.run("t")
        #expect(outcome.status("test") == .succeeded, "\(outcome.summary.steps.first?.error ?? "")")
        let outputs = outcome.outputs("test")
        #expect(outputs["failed"] == "0" && outputs["total"] != "0" && outputs["total"] == outputs["passed"])
        #expect(outputs["result-bundle"] == ".slipway/results/t-test.xcresult" && !(outputs["coverage"] ?? "").isEmpty)
        #expect(project.calls().contains("-parallel-testing-enabled\nNO\n-enableCodeCoverage\nYES\n"))
        let xcrun = try String(contentsOfFile: project.scenario.path + "/xcrun-calls.txt", encoding: .utf8)
        #expect(xcrun.hasPrefix("xcresulttool\nget\ntest-results\nsummary\n--path\n" + project.fixture.path + "/.slipway/results/t-test.xcresult\n"))
    }

    @Test("a secret printed by xcodebuild is masked in the raw log and everywhere else")
    func secretsMasked() async throws {
        let secret = "s3cr3t-\(UInt32.random(in: 1000...9999))"
        let project = try Project(["ios": """
            secrets: [API_TOKEN]
            steps:
              - xcode.build: { project: App.xcodeproj, scheme: App, build-settings: { API_TOKEN: "${{ secrets.API_TOKEN }}" } }
            """], secrets: ["API_TOKEN": secret])
        try project.scenario.write("build.log", "note: using token \(secret)\n** BUILD SUCCEEDED **\n")
        try project.scenario.write("build-settings.json", "[]")
        let outcome = try await project.fixture.run("ios")
        #expect(outcome.summary.status == .succeeded)
        let raw = try String(contentsOfFile: project.fixture.path + "/.slipway/logs/ios-xcode.build-build.log", encoding: .utf8)
        #expect(raw == "note: using token ***\n** BUILD SUCCEEDED **\n")
        #expect(!outcome.console.contains(secret))
    }

    @Test("bad input is refused at validation with the exact error, and nothing runs", arguments: [
        ("- xcode.build: { project: App.xcodeproj, scheme: Ap }",
         "lanes/bad.yml:2:5: error: step 'xcode.build' (xcode.build): No scheme 'Ap' in 'App.xcodeproj' (its schemes: 'App'). Did you mean 'App'?"),
        ("- xcode.build: { project: Missing.xcodeproj, scheme: App }",
         "lanes/bad.yml:2:5: error: step 'xcode.build' (xcode.build): 'Missing.xcodeproj' does not exist. Give the path of an .xcodeproj or .xcworkspace."),
        ("- xcode.build: { project: App.xcodeproj, workspace: App.xcworkspace, scheme: App }",
         "lanes/bad.yml:2:5: error: step 'xcode.build' (xcode.build): option 'workspace' is given together with project. Give one: the workspace when the app builds through one (CocoaPods, several projects), else the project."),
        ("- xcode.export: { archive: build/App.xcarchive, method: app-stor }",
         "lanes/bad.yml:2:5: error: step 'xcode.export' (xcode.export): option 'method' is not known: Unknown export method 'app-stor'. Did you mean 'app-store'? Valid methods: app-store-connect, release-testing, debugging, enterprise, developer-id, mac-application, validation (and the deprecated ad-hoc, app-store, development)."),
        ("- xcode.test: { project: App.xcodeproj, scheme: App, destinations: [\"platform=iOS Simulator,name\"] }",
         "lanes/bad.yml:2:5: error: step 'xcode.test' (xcode.test): Option 'destinations': 'platform=iOS Simulator,name' has 'name' without '=' (write key=value). Example: 'platform=iOS Simulator,name=iPhone 16,OS=18.2'."),
    ])
    func badInput(step: String, expected: String) async throws {
        let project = try Project(["bad": "steps:\n  \(step)\n"])
        let before = try project.fixture.snapshot()
        let problems = await project.fixture.problems("bad")
        #expect(problems == [expected])
        #expect(try project.fixture.snapshot() == before)
        #expect(project.calls().isEmpty)
    }

    @Test("xcodebuild missing, killed by a signal, no result bundle, tests passing with a failing exit: each says so")
    func runFailures() async throws {
        func failure(_ lane: String, setUp: (Project) throws -> Void, path: String? = nil) async throws -> String {
            let project = try Project(["f": lane])
            try setUp(project)
            if let path { project.fixture.environment = project.fixture.environment.merging(["PATH": path]) }
            let outcome = try await project.fixture.run("f")
            return outcome.summary.steps.first?.error ?? ""
        }
        let test = "steps:\n  - xcode.test: { project: App.xcodeproj, scheme: App }\n"
        let missing = try await failure(test, setUp: { _ in }, path: "/nonexistent")
        #expect(missing == "xcodebuild was not found on PATH. It comes with Xcode: install Xcode, run 'sudo xcode-select --switch /Applications/Xcode.app', or set DEVELOPER_DIR.")
        let killed = try await failure(test, setUp: { try $0.scenario.write("test.signal", "TERM") })
        #expect(killed.hasPrefix("xcodebuild was killed by signal 15"))
        #expect(killed.hasSuffix("the raw log is .slipway/logs/f-xcode.test-test.log"))
        let noBundle = try await failure(test, setUp: { try $0.scenario.write("no-bundle", "") })
        #expect(noBundle == "xcodebuild test exited with exit code 0 but wrote no result bundle at '.slipway/results/f-xcode.test.xcresult'; the raw log is .slipway/logs/f-xcode.test-test.log.")
        let disagree = try await failure(test, setUp: { project in
            try project.use(["summary.json": "xcresult/summary-passing.json", "tests.json": "xcresult/tests-passing.json"])
            try project.scenario.write("test.status", "65")
        })
        #expect(disagree.hasPrefix("the tests passed ("))
        #expect(disagree.contains("but xcodebuild exited with exit code 65"))
        // A log whose own totals disagree with what was read fails the step, and the error says why.
        let build = "steps:\n  - xcode.build: { project: App.xcodeproj, scheme: App }\n"
        let totals = try await failure(build, setUp: { project in
            try project.scenario.write("build.log", """
                Test Suite 'All tests' started at 2026-11-27 10:00:00.000.
                Test Case '-[AppTests.CartTests testAdd]' started.
                Test Case '-[AppTests.CartTests testAdd]' passed (0.001 seconds).
                Test Suite 'All tests' passed at 2026-11-27 10:00:00.100.
                \t Executed 2 tests, with 0 failures (0 unexpected) in 0.002 (0.003) seconds

                """)
        })
        #expect(totals.hasPrefix("xcodebuild build failed with exit code 0 (0 error(s))\n  XCTest reported 2 tests and 0 failures, but the formatter counted 1 test and 0 failures:"))
        #expect(totals.hasSuffix("The raw log is .slipway/logs/f-xcode.build-build.log."))
    }

    @Test("templates/ios/ios-release.yml (what 'slipway init --template ios' writes) runs end to end")
    func iosReleaseTemplate() async throws {
        let template = try String(contentsOfFile: Self.here + "/../../templates/ios/ios-release.yml", encoding: .utf8)
        let project = try Project(["ios-release": template])
        let pbxproj = SyntheticXcodeProject.pbxproj(files: 2, groups: 1).replacingOccurrences(
            of: "\t\t\t\tINFOPLIST_FILE = ", with: "\t\t\t\tCURRENT_PROJECT_VERSION = 1;\n\t\t\t\tMARKETING_VERSION = 1.0.0;\n\t\t\t\tINFOPLIST_FILE = ")
        // What the template's first step, appstore.preflight, asks of an app: a real Info.plist
        // answering export compliance, and the 1024-pixel App Store icon.
        try project.fixture.write("App.xcodeproj/project.pbxproj", pbxproj.replacingOccurrences(of: "INFOPLIST_FILE = App/File000000.swift;",
                                                                                                  with: "INFOPLIST_FILE = App/Info.plist;"))
        try project.fixture.write("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>ITSAppUsesNonExemptEncryption</key><false/></dict></plist>

            """)
        try project.fixture.write("App/Assets.xcassets/AppIcon.appiconset/Contents.json",
                                  #"{"images": [{"filename": "icon.png", "idiom": "universal", "platform": "ios", "size": "1024x1024"}]}"#)
        try Data(PreflightFixture.pngHeader(width: 1024, height: 1024, colorType: 2))
            .write(to: URL(fileURLWithPath: project.fixture.path + "/App/Assets.xcassets/AppIcon.appiconset/icon.png"))
        try project.fixture.write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n### Added\n- Checkout\n")
        try project.fixture.write(".gitignore", ".slipway/\nbuild/\n")
        for arguments in [["init", "--quiet", "--initial-branch=main"], ["add", "-A"], ["commit", "--quiet", "-m", "feat: checkout"]] {
            _ = try GitFixture.run(arguments, in: project.fixture.path)
        }
        try project.use(["summary.json": "xcresult/summary-passing.json", "tests.json": "xcresult/tests-passing.json",
                         "test.log": "logs/xctest.log", "archive.log": "logs/archive.log"])
        try project.scenario.write("-exportArchive.log", "** EXPORT SUCCEEDED **\n")
        let outcome = try await project.fixture.run("ios-release") {
            $0.inputs = ["scheme": "App", "team-id": "ABCDE12345", "build-number": "42", "strategy": "1.1.0"]
        }
        #expect(outcome.summary.status == .succeeded, "\(outcome.summary.steps.filter { $0.status != .succeeded }.map { "\($0.id): \($0.error ?? "")" })")
        #expect(try String(contentsOfFile: project.fixture.path + "/.slipway/published/App.ipa", encoding: .utf8) == "stand-in ipa\n")
        let log = try GitFixture.run(["log", "--format=%s %D", "-1"], in: project.fixture.path)
        #expect(log.hasPrefix("chore(release): 1.1.0 (42) HEAD -> main, tag: v1.1.0"))
        let stamped = try String(contentsOfFile: project.fixture.path + "/App.xcodeproj/project.pbxproj", encoding: .utf8)
        #expect(stamped.contains("MARKETING_VERSION = 1.1.0;") && stamped.contains("CURRENT_PROJECT_VERSION = 42;"))
        #expect(project.calls().contains("archive\n") && project.calls().contains("-exportArchive\n"))
    }
}
