import Foundation
import Testing
import TestSupport
import TestThreads

/// Release steps on a hostile checkout, through the built binary: a version file, an
/// Info.plist, a changelog, its template, an .xcconfig or the project file that is a committed
/// link out of the project (to `/proc/self/environ`, to another folder, to `/dev/zero`), or a
/// folder link that an output would be written through. Each is refused with a message naming
/// the file and the link; nothing outside is read into the output or written; the lane's
/// `finally:` steps run and the run journal says failed.
@Suite(.dedicatedThreads) struct ReleaseCheckoutLinkTests {
    static let secret = "OUTSIDE-TEXT-5e1f0c"

    struct Fixture {
        let repo: GitFixture
        let outside: TemporaryDirectory
        var path: String { repo.path }

        /// A repository with one commit, a v1.0.0 tag, the lane `release` (its steps, then a
        /// `finally:` that echoes a marker) and `files`.
        init(steps: String, files: [String: String] = [:]) throws {
            repo = try GitFixture(prefix: "slipway-release-links")
            outside = try TemporaryDirectory(prefix: "slipway-release-outside")
            try outside.write("secret.txt", ReleaseCheckoutLinkTests.secret + "\n")
            try outside.write("Info.plist", ReleaseCheckoutLinkTests.plist)
            try outside.write("CHANGELOG.md", "# Changelog\n\n" + ReleaseCheckoutLinkTests.secret + "\n")
            try outside.write("VERSION", "1.0.0\n")
            var all = files
            all[".gitignore"] = "/.slipway/\n"
            all["lanes/release.yml"] = "steps:\n" + steps + "finally:\n  - run: echo finally-ran-$((40 + 2))\n"
            _ = try repo.commit("feat: first", files: all)
            _ = try repo.git("tag", "v1.0.0")
            _ = try repo.commit("fix: second", files: ["notes.txt": "two\n"])
        }

        /// A symbolic link at `relative` (inside the project) to `target`.
        func link(_ relative: String, to target: String) throws {
            let full = path + "/" + relative
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: target)
        }

        func slipway(_ arguments: [String]) throws -> CommandResult {
            try CommandResult.run(Binaries.slipway, arguments + ["--no-color"], in: path,
                                  environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil, "CI": nil,
                                                "SLIPWAY_ENVIRON_MARKER": ReleaseCheckoutLinkTests.secret])
        }

        /// The run journal's status, or nil.
        func journalStatus() throws -> String? {
            let path = path + "/.slipway/runs/release/latest.json"
            guard let data = FileManager.default.contents(atPath: path),
                  let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            return object["status"] as? String
        }

        /// The project (without .git and .slipway) and the outside folder, links recorded by
        /// their target and never followed (a link to `/dev/zero` is never read).
        func snapshot() throws -> [String: String] {
            try LinkSnapshot.of(path, skipping: [".git", ".slipway"]).merging(
                LinkSnapshot.of(outside.path, skipping: []).mapKeys { "outside/" + $0 }) { $1 }
        }
    }

    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>CFBundleShortVersionString</key><string>1.0.0</string></dict></plist>
        """

    /// Checks a refused run: exit 1, `message` in the output, nothing of the outside text, no
    /// change on disk (inside or outside), `finally:` ran, and the journal says failed.
    func expectRefused(_ fixture: Fixture, dryRun: Bool = false, message: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try fixture.snapshot()
        let result = try fixture.slipway(["run", "release"] + (dryRun ? ["--dry-run"] : []))
        let output = result.standardOutput + result.standardError
        #expect(result.status == 1, "\(output)", sourceLocation: sourceLocation)
        #expect(output.contains(message), "\(output)", sourceLocation: sourceLocation)
        #expect(!output.contains(Self.secret), "the outside text was printed: \(output)", sourceLocation: sourceLocation)
        #expect(!output.contains("Fatal error"), "\(output)", sourceLocation: sourceLocation)
        #expect(try fixture.snapshot() == before, "something changed on disk", sourceLocation: sourceLocation)
        if !dryRun {
            #expect(output.contains("finally-ran-42"), "finally: did not run: \(output)", sourceLocation: sourceLocation)
            #expect(try fixture.journalStatus() == "failed", sourceLocation: sourceLocation)
            let written = try LinkSnapshot.texts(under: fixture.path + "/.slipway")
            #expect(!written.contains(Self.secret), "the outside text is in the journal", sourceLocation: sourceLocation)
        }
    }

    func outsideLink(_ path: String, _ target: String, root: String) -> String {
        "'\(path)' is a symbolic link to '\(target)', outside the project. Slipway reads and writes the project's files "
            + "only inside the project ('\(root)'): replace the link with the file or folder itself, or name a path inside the project."
    }

    func throughFolder(_ path: String, link: String, target: String, root: String) -> String {
        "'\(path)' leads outside the project through the symbolic link '\(link)' (to '\(target)'). Slipway reads and writes "
            + "the project's files only inside the project ('\(root)')"
    }

    // MARK: - Links to files outside

    @Test func aVersionFileLinkedToTheEnvironmentIsRefusedInThePlan() throws {
        let fixture = try Fixture(steps: "  - version.bump: { strategy: \"1.2.0\", version-file: VERSION }\n")
        try fixture.link("VERSION", to: "/proc/self/environ")
        // The link's real path is the reading process's own: '/proc/<pid>/environ'.
        let message = try Regex(#"'VERSION' is a symbolic link to '/proc/[0-9]+/environ', outside the project\. Slipway reads and writes "#
            + #"the project's files only inside the project \('[^']+'\): replace the link with the file or folder itself, or name a path inside the project\."#)
        for dryRun in [true, false] {
            let before = try fixture.snapshot()
            let result = try fixture.slipway(["run", "release"] + (dryRun ? ["--dry-run"] : []))
            let output = result.standardOutput + result.standardError
            #expect(result.status == 1, "\(output)")
            #expect(output.contains(message), "\(output)")
            #expect(!output.contains(Self.secret), "the environment was printed: \(output)")
            #expect(try fixture.snapshot() == before)
        }
        #expect(try fixture.journalStatus() == "failed")
    }

    @Test func aLinkedChangelogTemplateIsNeitherPrintedNorWritten() throws {
        let fixture = try Fixture(steps: "  - changelog.update: { version: 1.1.0, template: entry.mustache }\n",
                                  files: ["CHANGELOG.md": "# Changelog\n"])
        try fixture.link("entry.mustache", to: fixture.outside.path + "/secret.txt")
        let message = outsideLink("entry.mustache", fixture.outside.path + "/secret.txt", root: fixture.path)
        try expectRefused(fixture, dryRun: true, message: message)
        try expectRefused(fixture, message: message)
    }

    @Test func aLinkedChangelogIsNotPrependedToNorCommitted() throws {
        let fixture = try Fixture(steps: """
              - changelog.update: { version: 1.1.0 }
              - git.commit: { message: "chore: release 1.1.0", paths: [CHANGELOG.md] }

            """)
        try fixture.link("CHANGELOG.md", to: fixture.outside.path + "/CHANGELOG.md")
        let head = try fixture.repo.git("rev-parse", "HEAD")
        let message = "'CHANGELOG.md' is a symbolic link (to '\(fixture.outside.path)/CHANGELOG.md'), and Slipway never writes "
            + "through a link. Replace the link with a regular file, or remove it."
        try expectRefused(fixture, dryRun: true, message: message)
        try expectRefused(fixture, message: message)
        #expect(try fixture.repo.git("rev-parse", "HEAD") == head, "git.commit ran")
    }

    @Test func everyVersionFileIsCheckedBeforeAnyIsWritten() throws {
        let fixture = try Fixture(steps: """
              - version.bump:
                  strategy: "1.2.0"
                  version-file: VERSION
                  files: [{ path: Sources/Version.swift, pattern: 'let version = "(.*)"' }]

            """, files: ["VERSION": "1.0.0\n", "Sources/Real.swift": "let version = \"1.0.0\"\n"])
        try fixture.link("Sources/Version.swift", to: "Real.swift")
        let message = "'Sources/Version.swift' is a symbolic link (to 'Real.swift'), and Slipway never writes through a link. "
            + "Replace the link with a regular file, or remove it."
        try expectRefused(fixture, dryRun: true, message: message)
        try expectRefused(fixture, message: message)
    }

    @Test func anXcodeSchemeLinkedToDevZeroIsACleanError() throws {
        let fixture = try Fixture(steps: "  - xcode.build: { project: App.xcodeproj, scheme: App }\n", files: [
            "App.xcodeproj/project.pbxproj": VersionedXcodeProject.pbxproj(targets: [VersionedXcodeProject.Target("App", xcconfig: "Config/App.xcconfig")]),
        ])
        try fixture.link("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", to: "/dev/zero")
        let before = try fixture.snapshot()
        for command in [["validate", "release", "--platform", "macos"], ["run", "release", "--dry-run", "--platform", "macos"]] {
            let result = try fixture.slipway(command)
            let output = result.standardOutput + result.standardError
            #expect(result.status == 2, "\(command): \(output)")
            #expect(output.contains(outsideLink("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", "/dev/zero", root: fixture.path)),
                    "\(command): \(output)")
            #expect(!output.contains("Fatal error"), "\(output)")
        }
        #expect(try fixture.snapshot() == before)
    }

    // MARK: - Writes through a folder link

    @Test func outputsThroughAFolderLinkAreRefused() throws {
        let cases: [(steps: String, file: String)] = [
            ("  - version.bump: { strategy: \"1.2.0\", version-file: Support/VERSION }\n", "Support/VERSION"),
            ("  - version.bump: { strategy: \"1.2.0\", info-plists: [Support/Info.plist] }\n", "Support/Info.plist"),
            ("  - changelog.update: { version: 1.1.0, path: Support/CHANGELOG.md }\n", "Support/CHANGELOG.md"),
            ("  - changelog.update: { version: 1.1.0, path: Support/NEW.md, create: true }\n", "Support/NEW.md"),
            ("  - archive: { files: [notes.txt], output: Support/app.tar.gz }\n", "Support/app.tar.gz"),
        ]
        for (steps, file) in cases {
            let fixture = try Fixture(steps: steps)
            try fixture.link("Support", to: fixture.outside.path)
            let name = (file as NSString).lastPathComponent
            let message = throughFolder(file, link: "Support", target: fixture.outside.path + "/" + name, root: fixture.path)
            try expectRefused(fixture, message: message)
        }
    }

    // MARK: - Links to /dev/zero: a clean error, not "failed to allocate"

    @Test func linksToDevZeroEndTheLaneCleanly() throws {
        let xcodeproj = VersionedXcodeProject.pbxproj(targets: [VersionedXcodeProject.Target("App", xcconfig: "Config/App.xcconfig")])
        let cases: [(steps: String, files: [String: String], link: String)] = [
            ("  - version.bump: { strategy: \"1.2.0\", version-file: VERSION }\n", [:], "VERSION"),
            ("  - version.bump: { strategy: \"1.2.0\", info-plists: [Info.plist] }\n", [:], "Info.plist"),
            ("  - version.bump: { strategy: \"1.2.0\", xcodeproj: App.xcodeproj }\n", [:], "App.xcodeproj/project.pbxproj"),
            ("  - changelog.update: { version: 1.1.0 }\n", [:], "CHANGELOG.md"),
            ("  - changelog.update: { version: 1.1.0, template: entry.mustache }\n", ["CHANGELOG.md": "# Changelog\n"], "entry.mustache"),
        ]
        for (steps, files, link) in cases {
            let fixture = try Fixture(steps: steps, files: files)
            try fixture.link(link, to: "/dev/zero")
            let message = link == "CHANGELOG.md"
                ? "'CHANGELOG.md' is a symbolic link (to '/dev/zero'), and Slipway never writes through a link."
                : outsideLink(link, "/dev/zero", root: fixture.path)
            try expectRefused(fixture, message: message)
        }
        // An .xcconfig the project names, linked to /dev/zero.
        let fixture = try Fixture(steps: "  - version.bump: { strategy: \"1.2.0\", xcodeproj: App.xcodeproj }\n",
                                  files: ["App.xcodeproj/project.pbxproj": xcodeproj])
        try fixture.link("Config/App.xcconfig", to: "/dev/zero")
        try expectRefused(fixture, message: "(a link to '/dev/zero') is outside the project folder '\(fixture.path)'")
    }
}

/// A snapshot that records links by their target and never follows them.
enum LinkSnapshot {
    static func of(_ root: String, skipping: Set<String>) throws -> [String: String] {
        var result: [String: String] = [:]
        func walk(_ relative: String) throws {
            let full = relative.isEmpty ? root : root + "/" + relative
            for name in try FileManager.default.contentsOfDirectory(atPath: full).sorted() {
                let child = relative.isEmpty ? name : relative + "/" + name
                if relative.isEmpty && skipping.contains(name) { continue }
                var info = stat()
                guard lstat(root + "/" + child, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFLNK: result[child] = "link " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + child)) ?? "?")
                case S_IFDIR: result[child] = "folder \(info.st_mode & 0o7777)"; try walk(child)
                case S_IFREG:
                    let data = FileManager.default.contents(atPath: root + "/" + child) ?? Data()
                    result[child] = "\(info.st_mode & 0o7777) " + data.base64EncodedString()
                default: result[child] = "other"
                }
            }
        }
        try walk("")
        return result
    }

    /// The text of every regular file under `root` (none followed through a link).
    static func texts(under root: String) throws -> String {
        guard FileManager.default.fileExists(atPath: root) else { return "" }
        return try of(root, skipping: []).values.compactMap { value -> String? in
            guard let space = value.firstIndex(of: " "), let data = Data(base64Encoded: String(value[value.index(after: space)...])) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }.joined(separator: "\n")
    }
}

extension Dictionary where Key == String {
    fileprivate func mapKeys(_ transform: (String) -> String) -> [String: Value] {
        Dictionary(uniqueKeysWithValues: map { (transform($0.key), $0.value) })
    }
}

/// The xcodeproj commands read the project file through the door: a `project.pbxproj` that is a
/// link to a device ends in a clean error naming the link, not "failed to allocate".
@Suite(.dedicatedThreads) struct PBXProjDeviceTests {
    @Test func aProjectFileLinkedToDevZeroIsACleanError() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-pbxproj-device")
        try FileManager.default.createDirectory(atPath: folder.path + "/App.xcodeproj", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/App.xcodeproj/project.pbxproj", withDestinationPath: "/dev/zero")
        for command in [["xcodeproj", "verify", "App.xcodeproj"], ["xcodeproj", "format", "--check", "App.xcodeproj"]] {
            let result = try CommandResult.run(Binaries.slipway, command + ["--no-color"], in: folder.path, environment: ["NO_COLOR": "1"])
            let output = result.standardOutput + result.standardError
            #expect(result.status == 2, "\(command): \(output)")
            #expect(output.contains("error: 'App.xcodeproj/project.pbxproj' is a symbolic link to '/dev/zero', outside the project. "
                                    + "Slipway reads and writes the project's files only inside the project"), "\(command): \(output)")
            #expect(!output.contains("Fatal error"), "\(output)")
        }
    }
}
