import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// A pull request's checkout whose lockfiles, Toolfile, lane files, lint configuration, project
/// file or output folders are committed links (to `~/.aws/credentials`, `/proc/self/environ`,
/// `/dev/zero`, a folder outside): every command refuses them by name, through the door, and
/// nothing outside is read, printed or written.
@Suite(.dedicatedThreads) struct ProjectFileDoorCLITests {
    static let secret = "aws_access_key_id = AKIAD00RSECRETKEY\n"
    static let ciToken = "ci-token-d00r-5ecret"

    struct Fixture {
        let project: TemporaryDirectory
        let outside: TemporaryDirectory
        var root: String { project.path }
        var secretPath: String { outside.path + "/credentials" }

        init() throws {
            project = try TemporaryDirectory(prefix: "slipway-door")
            outside = try TemporaryDirectory(prefix: "slipway-door-outside")
            try outside.write("credentials", ProjectFileDoorCLITests.secret)
        }

        func link(_ relative: String, to target: String) throws {
            let full = project.path + "/" + relative
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: target)
        }

        func slipway(_ arguments: [String]) throws -> CommandResult {
            try CommandResult.run(Binaries.slipway, arguments, in: project.path, environment: [
                "NO_COLOR": "1", "GITHUB_ACTIONS": nil, "CI_JOB_TOKEN": ProjectFileDoorCLITests.ciToken,
                "SLIPWAY_CACHE_DIR": outside.path + "/cache", "XDG_CONFIG_HOME": outside.path + "/config",
            ])
        }

        /// The door's message for a project file that is a link to `target` outside.
        func linkedOutside(_ relative: String, to target: String) -> String {
            "error: '\(relative)' is a symbolic link to '\(target)', outside the project. Slipway reads and writes the "
                + "project's files only inside the project ('\(root)'): replace the link with the file or folder itself, "
                + "or name a path inside the project.\n"
        }

        /// The door's message for a path whose folder leads outside through `link`.
        func throughLink(_ relative: String, link: String, target: String) -> String {
            "error: '\(relative)' leads outside the project through the symbolic link '\(link)' (to '\(target)'). Slipway "
                + "reads and writes the project's files only inside the project ('\(root)'): replace the link with the file "
                + "or folder itself, or name a path inside the project.\n"
        }
    }

    /// Nothing secret in what a command printed.
    func expectNoLeak(_ result: CommandResult, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let text = result.standardOutput + result.standardError
        #expect(!text.contains("AKIAD00RSECRETKEY"), "\(what) printed the linked file: \(text)", sourceLocation: sourceLocation)
        #expect(!text.contains(Self.ciToken), "\(what) printed the environment: \(text)", sourceLocation: sourceLocation)
        #expect(!text.contains("Fatal error"), "\(what) crashed: \(text)", sourceLocation: sourceLocation)
    }

    static let podfileLock = """
        PODS:
          - Alamofire (5.8.1)

        DEPENDENCIES:
          - Alamofire

        SPEC CHECKSUMS:
          Alamofire: 3ca42e259043ee0dc5c0cdd76c4bc568b8e42af7

        COCOAPODS: 1.14.3

        """

    // MARK: - Lockfiles

    @Test(arguments: ["Podfile.lock", "Cartfile.resolved", "Package.resolved", "Gemfile.lock"])
    func aLockfileLinkedOutsideIsRefused(name: String) throws {
        for target in ["credentials", "/dev/zero"] {
            let fixture = try Fixture()
            let destination = target == "credentials" ? fixture.secretPath : target
            try fixture.link(name, to: destination)
            let before = try Snapshot.of(fixture.root)
            for command in [["deps", "verify"], ["verify"]] {
                let result = try fixture.slipway(command)
                #expect(result.status == 2, "\(command) \(name) -> \(destination): \(result.standardError)")
                #expect(result.standardError == fixture.linkedOutside(name, to: destination), "\(command)")
                #expect(result.standardOutput == "", "\(command)")
                expectNoLeak(result, "\(command) with \(name) -> \(destination)")
            }
            #expect(try Snapshot.of(fixture.root) == before)
            #expect(try String(contentsOfFile: fixture.secretPath, encoding: .utf8) == Self.secret)
        }
    }

    @Test func aLockfileLinkedToTheEnvironmentIsRefused() throws {
        let fixture = try Fixture()
        try fixture.link("Cartfile.resolved", to: "/proc/self/environ")
        let result = try fixture.slipway(["deps", "verify"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("error: 'Cartfile.resolved' is a symbolic link to '/proc/"), "\(result.standardError)")
        #expect(result.standardError.contains("/environ', outside the project."), "\(result.standardError)")
        expectNoLeak(result, "deps verify with Cartfile.resolved -> /proc/self/environ")
    }

    @Test func anInstalledPodsManifestLinkedOutsideIsRefused() throws {
        let fixture = try Fixture()
        try fixture.project.write("Podfile.lock", Self.podfileLock)
        try fixture.link("Pods/Manifest.lock", to: fixture.secretPath)
        let before = try Snapshot.of(fixture.root)
        for command in [["deps", "verify"], ["verify"]] {
            let result = try fixture.slipway(command)
            #expect(result.status == 2, "\(command): \(result.standardError)")
            #expect(result.standardError == fixture.linkedOutside("Pods/Manifest.lock", to: fixture.secretPath), "\(command)")
            expectNoLeak(result, "\(command) with Pods/Manifest.lock linked")
        }
        #expect(try Snapshot.of(fixture.root) == before)
    }

    @Test func aLockfileOverItsCapIsRefusedUnread() throws {
        let fixture = try Fixture()
        try fixture.project.write("Toolfile", "tools: {}\n")
        let path = try fixture.project.write("Toolfile.lock", "")
        #expect(truncate(path, off_t(FileBudget.lockfile.limit + 1)) == 0)
        let result = try fixture.slipway(["tools", "verify"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError == "error: '\(fixture.root)/Toolfile.lock' is larger than 16777216 bytes, the most Slipway "
            + "reads of a lockfile. Check that it is the file you meant.\n")
    }

    // MARK: - Toolfile

    @Test func aToolfileOrToolfileLockLinkedOutsideIsRefused() throws {
        let toolfile = "tools:\n  fmt:\n    system: true\n    version: 1.0.0\n"
        for (name, target) in [("Toolfile", "credentials"), ("Toolfile", "/dev/zero"), ("Toolfile.lock", "credentials"), ("Toolfile.lock", "/dev/zero")] {
            let fixture = try Fixture()
            let destination = target == "credentials" ? fixture.secretPath : target
            if name == "Toolfile.lock" { try fixture.project.write("Toolfile", toolfile) }
            try fixture.link(name, to: destination)
            let before = try Snapshot.of(fixture.root)
            for command in [["tools", "verify"], ["tools", "lock"], ["tools", "install"], ["tools", "outdated"], ["exec", "fmt"], ["verify"]]
            where !(name == "Toolfile.lock" && command == ["tools", "lock"]) {
                let result = try fixture.slipway(command)
                #expect(result.status == 2, "\(command) \(name) -> \(destination): \(result.standardError)")
                #expect(result.standardError == fixture.linkedOutside(name, to: destination),
                        "\(command) \(name) -> \(destination): \(result.standardError)")
                expectNoLeak(result, "\(command) with \(name) -> \(destination)")
            }
            #expect(try Snapshot.of(fixture.root) == before)
        }
    }

    // MARK: - Lane files

    @Test func aLaneFileLinkedToADeviceOrOutsideIsRefused() throws {
        for target in ["/dev/zero", "credentials"] {
            let fixture = try Fixture()
            let destination = target == "credentials" ? fixture.secretPath : target
            try fixture.link("lanes/release.yml", to: destination)
            let before = try Snapshot.of(fixture.root)
            for command in [["validate", "release"], ["validate"], ["run", "release"]] {
                let result = try fixture.slipway(command)
                #expect(result.status == 2, "\(command) -> \(destination): \(result.standardError)")
                #expect(result.standardError.contains(fixture.linkedOutside("lanes/release.yml", to: destination)),
                        "\(command) -> \(destination): \(result.standardError)")
                expectNoLeak(result, "\(command) with lanes/release.yml -> \(destination)")
            }
            // The listing shows the lane as invalid and points at 'validate', which names the link.
            let lanes = try fixture.slipway(["lanes"])
            #expect(lanes.status == 0, "\(lanes.standardError)")
            #expect(lanes.standardOutput == "release  (no description)\n    invalid: 1 problem(s); run 'slipway validate release'\n",
                    "\(lanes.standardOutput)")
            expectNoLeak(lanes, "lanes with lanes/release.yml -> \(destination)")
            #expect(try Snapshot.of(fixture.root) == before)
        }
    }

    @Test func aLaneFileOverItsCapIsRefusedUnread() throws {
        let fixture = try Fixture()
        let path = try fixture.project.write("lanes/big.yml", "")
        #expect(truncate(path, off_t(FileBudget.laneFile.limit + 1)) == 0)
        let result = try fixture.slipway(["validate", "big"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError == "error: '\(fixture.root)/lanes/big.yml' is larger than 1048576 bytes, the most Slipway "
            + "reads of a lane file. Check that it is the file you meant.\n")
    }

    // MARK: - Lint configuration and project file

    @Test func aLintConfigurationOrProjectFileLinkedToADeviceIsRefused() throws {
        let fixture = try Fixture()
        try fixture.project.write("App.xcodeproj/project.pbxproj", InitFromFastlaneTests.pbxproj)
        try fixture.link(".slipway/lint.yml", to: "/dev/zero")
        let lint = try fixture.slipway(["xcodeproj", "lint", "App.xcodeproj"])
        #expect(lint.status == 2, "\(lint.standardError)")
        #expect(lint.standardError == "error: \(fixture.root)/.slipway/lint.yml: cannot be read: "
            + fixture.linkedOutside(".slipway/lint.yml", to: "/dev/zero").dropFirst("error: ".count), "\(lint.standardError)")
        expectNoLeak(lint, "xcodeproj lint with .slipway/lint.yml -> /dev/zero")

        let other = try Fixture()
        try other.link("App.xcodeproj/project.pbxproj", to: "/dev/zero")
        try other.project.write("Other.xcodeproj/project.pbxproj", InitFromFastlaneTests.pbxproj)
        let before = try Snapshot.of(other.root)
        let message = other.linkedOutside("App.xcodeproj/project.pbxproj", to: "/dev/zero")
        let commands: [[String]] = [
            ["xcodeproj", "lint", "App.xcodeproj"], ["xcodeproj", "diff", "App.xcodeproj", "Other.xcodeproj"],
            ["xcodeproj", "diff", "--textconv", "App.xcodeproj"], ["xcodeproj", "settings", "App.xcodeproj"],
            ["xcodeproj", "set-setting", "App.xcodeproj", "SWIFT_VERSION", "6.0"], ["xcodeproj", "groups", "App.xcodeproj"],
        ]
        for command in commands {
            let result = try other.slipway(command)
            #expect(result.status == 2, "\(command): \(result.standardError)")
            #expect(result.standardError.contains(String(message.dropFirst("error: ".count).dropLast())), "\(command): \(result.standardError)")
            expectNoLeak(result, "\(command) with project.pbxproj -> /dev/zero")
        }
        #expect(try Snapshot.of(other.root) == before)
    }

    // MARK: - A run: finally runs, the journal records the failure

    @Test func aRunWhoseStepMeetsALinkedFileFailsCleanlyAndRunsFinally() throws {
        let fixture = try Fixture()
        try fixture.project.write("App.xcodeproj/project.pbxproj", InitFromFastlaneTests.pbxproj)
        try fixture.link(".slipway/lint.yml", to: "/dev/zero")
        try fixture.project.write("lanes/check.yml", """
            steps:
              - lint:
                  project: App.xcodeproj
            finally:
              - run: echo finally-ran

            """)
        let result = try fixture.slipway(["run", "check"])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardOutput.contains("finally-ran"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains(".slipway/lint.yml' is a symbolic link to '/dev/zero', outside the project")
                    || result.standardError.contains(".slipway/lint.yml' is a symbolic link to '/dev/zero', outside the project"),
                "\(result.standardOutput)\n\(result.standardError)")
        expectNoLeak(result, "run with .slipway/lint.yml -> /dev/zero")
        let journal = try String(contentsOfFile: fixture.root + "/.slipway/runs/check/latest.json", encoding: .utf8)
        #expect(journal.contains("\"status\" : \"failed\"") || journal.contains("\"status\":\"failed\""), "\(journal)")
        #expect(!journal.contains("\"status\" : \"running\"") && !journal.contains("\"status\":\"running\""), "\(journal)")
    }

    // MARK: - Writes: --junit, --events, init

    @Test func reportsAreNeverWrittenThroughALinkedFolderOrFile() throws {
        let fixture = try Fixture()
        try fixture.project.write("lanes/hello.yml", "steps:\n  - run: echo hello-ran\n")
        try fixture.link("reports", to: fixture.outside.path)
        try fixture.link("events.ndjson", to: fixture.secretPath)
        let before = try Snapshot.of(fixture.root)
        let outsideBefore = try Snapshot.of(fixture.outside.path)

        let junit = try fixture.slipway(["run", "hello", "--junit", "reports/j.xml"])
        #expect(junit.status == 2, "\(junit.standardError)")
        #expect(junit.standardError == fixture.throughLink("reports/j.xml", link: "reports", target: fixture.outside.path + "/j.xml"))
        #expect(!junit.standardOutput.contains("hello-ran"), "the lane ran before the report path was refused")

        let events = try fixture.slipway(["run", "hello", "--events", "reports/e.ndjson"])
        #expect(events.status == 2, "\(events.standardError)")
        #expect(events.standardError == fixture.throughLink("reports/e.ndjson", link: "reports", target: fixture.outside.path + "/e.ndjson"))

        let linkedFile = try fixture.slipway(["run", "hello", "--events", "events.ndjson"])
        #expect(linkedFile.status == 2, "\(linkedFile.standardError)")
        #expect(linkedFile.standardError == "error: 'events.ndjson' is a symbolic link (to '\(fixture.secretPath)'), and Slipway never "
            + "writes through a link. Replace the link with a regular file, or remove it.\n")
        expectNoLeak(linkedFile, "run --events through a link")

        #expect(try Snapshot.of(fixture.root) == before)
        #expect(try Snapshot.of(fixture.outside.path) == outsideBefore, "a report was written outside the project")

        // An absolute path outside the checkout, given on the command line, is the user's own folder.
        let own = try TemporaryDirectory(prefix: "slipway-door-reports")
        let allowed = try fixture.slipway(["run", "hello", "--junit", own.path + "/j.xml", "--events", own.path + "/e.ndjson"])
        #expect(allowed.status == 0, "\(allowed.standardError)")
        #expect(FileManager.default.fileExists(atPath: own.path + "/j.xml"))
        #expect(FileManager.default.fileExists(atPath: own.path + "/e.ndjson"))
    }

    @Test func initNeverWritesLanesThroughALink() throws {
        // A linked lanes folder.
        let fixture = try Fixture()
        try fixture.link("lanes", to: fixture.outside.path)
        let before = try Snapshot.of(fixture.root)
        let outsideBefore = try Snapshot.of(fixture.outside.path)
        let template = try fixture.slipway(["init", "--template", "library"])
        #expect(template.status == 2, "\(template.standardError)")
        #expect(template.standardError == fixture.linkedOutside("lanes", to: fixture.outside.path))
        try fixture.project.write("fastlane/Fastfile", "lane :beta do\n  sh(\"echo hi\")\nend\n")
        try fixture.project.write("App.xcodeproj/project.pbxproj", InitFromFastlaneTests.pbxproj)
        try fixture.project.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", InitFromFastlaneTests.scheme)
        let withFiles = try Snapshot.of(fixture.root)
        let fastlane = try fixture.slipway(["init", "--from-fastlane"])
        #expect(fastlane.status == 2, "\(fastlane.standardError)")
        #expect(fastlane.standardError.hasSuffix(fixture.linkedOutside("lanes", to: fixture.outside.path)), "\(fastlane.standardError)")
        #expect(try Snapshot.of(fixture.root) == withFiles)
        #expect(try Snapshot.of(fixture.outside.path) == outsideBefore, "init wrote lanes outside the project")
        _ = before

        // A linked lanes/release.yml, overwritten with --force.
        let file = try Fixture()
        try file.link("lanes/release.yml", to: file.secretPath)
        let fileBefore = try Snapshot.of(file.root)
        let forced = try file.slipway(["init", "--template", "library", "--force"])
        #expect(forced.status == 2, "\(forced.standardError)")
        #expect(forced.standardError == "error: 'lanes/release.yml' is a symbolic link (to '\(file.secretPath)'), and Slipway never "
            + "writes through a link. Replace the link with a regular file, or remove it.\n", "\(forced.standardError)")
        #expect(try String(contentsOfFile: file.secretPath, encoding: .utf8) == Self.secret, "init wrote through the link")
        #expect(try Snapshot.of(file.root) == fileBefore, "init wrote some lanes before refusing one")
    }
}
