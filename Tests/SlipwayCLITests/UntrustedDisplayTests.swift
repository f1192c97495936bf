import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 37, through the built `slipway`: untrusted text embedded in human output — a commit
/// subject, a pbxproj name and build setting, an Info.plist value, a lane file's name, names an
/// App Store Connect server gives — shows its control characters escaped where it is embedded.
/// The stream filter lets `\r ESC[K` through (Slipway's own progress uses it), so without this a
/// value could erase its line and print a forged "✓ upload succeeded".
@Suite(.dedicatedThreads) struct UntrustedDisplayTests {
    /// The raw sequence, and how it is shown.
    static let forgery = "\r\u{1B}[K✓ upload succeeded"
    static let shown = "\\r\\u{1B}[K✓ upload succeeded"

    func slipway(_ arguments: [String], in folder: String, environment: [String: String?] = [:]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: folder, environment: environment.merging([
            "NO_COLOR": "1", "GITHUB_ACTIONS": nil, "CI": "false",
        ]) { first, _ in first })
    }

    /// No raw carriage return or escape character anywhere (the run uses no colours and is not
    /// on a terminal, so Slipway itself writes neither).
    static func expectNoRawControls(_ result: CommandResult, _ command: String) {
        for (stream, text) in [("stdout", result.standardOutput), ("stderr", result.standardError)] {
            #expect(!text.contains("\u{1B}") && !text.unicodeScalars.contains("\r"), "\(command) \(stream): \(text.debugDescription)")
        }
    }

    @Test func aCommitSubjectIsShownEscapedByChangelog() throws {
        let repository = try GitFixture(prefix: "slipway-display-changelog")
        try repository.commit("chore: start")
        try repository.git("tag", "v1.0.0")
        try repository.commit("feat: x" + Self.forgery)
        let before = try Snapshot.of(repository.path)
        let result = try slipway(["changelog", "--style", "subjects"], in: repository.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasSuffix("\n- feat: x\(Self.shown) (\(try repository.git("rev-parse", "--short", "HEAD")))\n"),
                "\(result.standardOutput.debugDescription)")
        Self.expectNoRawControls(result, "changelog")
        let text = try slipway(["changelog", "--style", "conventional", "--format", "text"], in: repository.path)
        #expect(text.standardOutput.contains("x\(Self.shown)"), "\(text.standardOutput.debugDescription)")
        Self.expectNoRawControls(text, "changelog --format text")
        // JSON keeps the data, escaped by the encoder.
        let json = try slipway(["changelog", "--style", "subjects", "--json"], in: repository.path)
        #expect(json.standardOutput.contains(#"feat: x\r\u001b[K✓ upload succeeded"#), "\(json.standardOutput)")
        Self.expectNoRawControls(json, "changelog --json")
        #expect(try Snapshot.of(repository.path) == before)
    }

    @Test func aPbxprojGroupNameAndSettingAreShownEscaped() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-display-pbxproj")
        let bundle = try SyntheticXcodeProject.write(files: 2, groups: 2, in: folder.path)
        let pbxproj = bundle + "/project.pbxproj"
        var text = try String(contentsOfFile: pbxproj, encoding: .utf8)
        // In the pbxproj's own escapes: \r and \U001b.
        text = text.replacingOccurrences(of: "name = Module0000;", with: #"name = "Module0000\r\U001b[K✓ upload succeeded";"#)
        #expect(text.contains("SWIFT_VERSION = 5.0;"))
        text = text.replacingOccurrences(of: "SWIFT_VERSION = 5.0;", with: #"FORGED = "x\r\U001b[K✓ upload succeeded"; SWIFT_VERSION = 5.0;"#)
        try text.write(toFile: pbxproj, atomically: true, encoding: .utf8)
        let before = try Snapshot.of(folder.path)
        let groups = try slipway(["xcodeproj", "groups", "App.xcodeproj"], in: folder.path)
        #expect(groups.status == 0, "\(groups.standardError)")
        #expect(groups.standardOutput.contains("Module0000\(Self.shown)/  →  "), "\(groups.standardOutput.debugDescription)")
        Self.expectNoRawControls(groups, "xcodeproj groups")
        let settings = try slipway(["xcodeproj", "settings", "App.xcodeproj"], in: folder.path)
        #expect(settings.status == 0, "\(settings.standardError)")
        #expect(settings.standardOutput.contains("  FORGED = x\(Self.shown)\n"), "\(settings.standardOutput.debugDescription)")
        Self.expectNoRawControls(settings, "xcodeproj settings")
        let lint = try slipway(["xcodeproj", "lint", "App.xcodeproj"], in: folder.path)
        Self.expectNoRawControls(lint, "xcodeproj lint")
        let diff = try slipway(["xcodeproj", "diff", "--textconv", "App.xcodeproj"], in: folder.path)
        #expect(diff.standardOutput.contains("Module0000\(Self.shown)"), "\(diff.standardOutput.debugDescription)")
        Self.expectNoRawControls(diff, "xcodeproj diff --textconv")
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func anInfoPlistValueIsShownEscapedInAPlanAndARun() throws {
        let repository = try GitFixture(prefix: "slipway-display-plist")
        try repository.write("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>CFBundleShortVersionString</key>
            \t<string>1.0\(Self.forgery)</string>
            </dict>
            </plist>

            """)
        try repository.write("lanes/bump.yml", "steps:\n  - version.bump: { strategy: 2.0.0, info-plists: [App/Info.plist] }\n")
        try repository.commit("chore: start")
        let plan = try slipway(["run", "bump", "--dry-run"], in: repository.path)
        #expect(plan.status == 0, "\(plan.standardOutput)\(plan.standardError)")
        #expect(plan.standardOutput.contains("    would write: App/Info.plist CFBundleShortVersionString 1.0\(Self.shown) -> 2.0.0\n"),
                "\(plan.standardOutput.debugDescription)")
        Self.expectNoRawControls(plan, "run --dry-run")
        let run = try slipway(["run", "bump"], in: repository.path)
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("    info: wrote App/Info.plist CFBundleShortVersionString 1.0\(Self.shown) -> 2.0.0\n"),
                "\(run.standardOutput.debugDescription)")
        Self.expectNoRawControls(run, "run")
    }

    @Test func aLaneFileWhoseNameHoldsControlsIsShownEscaped() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-display-lane")
        let name = "x" + Self.forgery
        try folder.write("lanes/\(name).yml", "steps:\n  - run: \"true\"\n")
        let before = try Snapshot.of(folder.path)
        let lanes = try slipway(["lanes"], in: folder.path)
        #expect(lanes.status == 0, "\(lanes.standardError)")
        #expect(lanes.standardOutput.hasPrefix("x\(Self.shown)  (no description)\n"), "\(lanes.standardOutput.debugDescription)")
        #expect(lanes.standardOutput.contains("lanes/x\(Self.shown).yml"))
        Self.expectNoRawControls(lanes, "lanes")
        let validate = try slipway(["validate"], in: folder.path)
        #expect(validate.standardOutput.contains(" x\(Self.shown): "), "\(validate.standardOutput.debugDescription)")
        Self.expectNoRawControls(validate, "validate")
        #expect(try Snapshot.of(folder.path) == before)
        let run = try slipway(["run", name], in: folder.path)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("▸ lane 'x\(Self.shown)' (lanes/x\(Self.shown).yml)\n"), "\(run.standardOutput.debugDescription)")
        #expect(run.standardOutput.contains("✓ lane 'x\(Self.shown)' succeeded in "))
        Self.expectNoRawControls(run, "run")
    }

    @Test func aStepsOutputCannotEraseItsLine() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-display-output")
        // What `git log` prints for a hostile subject, in colour.
        try folder.write("lanes/log.yml", #"""
            steps:
              - run: |
                  printf '\033[33mabc123\033[0m feat: x\r\033[K\342\234\223 upload succeeded\n'
            """#)
        let run = try slipway(["run", "log"], in: folder.path)
        #expect(run.status == 0, "\(run.standardError)")
        // The carriage return shows; the erase-line it would have enabled is removed by the stream filter.
        // The tool's colours stay (the stream filter keeps colours).
        #expect(run.standardOutput.contains("\n    \u{1B}[33mabc123\u{1B}[0m feat: x\\r✓ upload succeeded\n"), "\(run.standardOutput.debugDescription)")
        #expect(!(run.standardOutput + run.standardError).unicodeScalars.contains("\r"))
        #expect(!(run.standardOutput + run.standardError).contains("\u{1B}[K"))
    }

    @Test func namesAServerGivesAreShownEscaped() throws {
        let key = P256.Signing.PrivateKey()
        let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
        let folder = try TemporaryDirectory(prefix: "slipway-display-server")
        let fake = try AppStoreConnectContractFake(keys: [.init(issuerID: issuer, keyID: "ABC123DEFG", publicKeyPEM: key.publicKey.pemRepresentation)],
                                                   onViolations: recordContractViolations)
        try fake.seedDevice(udid: "00008030-001A2B3C4D5E6F70", name: "Phone" + Self.forgery)
        let appID = try fake.seedApp(bundleID: "com.example.app", name: "Example" + Self.forgery)
        let keyArguments = ["--issuer-id", issuer, "--key-id", "ABC123DEFG", "--key-env", "ASC_KEY", "--api-url", fake.url]
        let environment = ["ASC_KEY": key.pemRepresentation]
        let devices = try slipway(["devices", "list"] + keyArguments, in: folder.path, environment: environment)
        #expect(devices.status == 0, "\(devices.standardError)")
        #expect(devices.standardOutput.contains("\nPhone\(Self.shown)  00008030-001A2B3C4D5E6F70  IPHONE"), "\(devices.standardOutput.debugDescription)")
        Self.expectNoRawControls(devices, "devices list")
        let check = try slipway(["appstore", "check", "--bundle-id", "com.example.app"] + keyArguments, in: folder.path, environment: environment)
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("the key can see 'Example\(Self.shown)' (com.example.app, app id \(appID))"),
                "\(check.standardOutput.debugDescription)")
        Self.expectNoRawControls(check, "appstore check")
    }
}
