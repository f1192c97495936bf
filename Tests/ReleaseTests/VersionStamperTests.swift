import Basics
import Foundation
import Release
import Testing
import TestSupport
import TestThreads

@Suite(.dedicatedThreads) struct VersionStamperTests {
    let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>CFBundleShortVersionString</key>
        \t<string>1.2.3</string>
        \t<key>CFBundleVersion</key>
        \t<string>42</string>
        </dict>
        </plist>

        """

    @Test func writesEveryKindOfTarget() throws {
        let folder = try TemporaryDirectory()
        try folder.write("Version.swift", "enum V {\n    static let current = \"1.2.3\"\n}\n")
        try folder.write("Info.plist", plist)
        let stamper = VersionStamper(fileSystem: LocalFileSystem())
        let edits = try stamper.edits([
            .versionFile(path: folder.path + "/VERSION"),
            .pattern(path: folder.path + "/Version.swift", pattern: #"static let current = "(.*)""#),
            .infoPlist(path: folder.path + "/Info.plist"),
        ], version: "1.3.0", buildNumber: "43")
        try stamper.apply(edits)
        #expect(try String(contentsOfFile: folder.path + "/VERSION", encoding: .utf8) == "1.3.0\n")
        #expect(try String(contentsOfFile: folder.path + "/Version.swift", encoding: .utf8) == "enum V {\n    static let current = \"1.3.0\"\n}\n")
        #expect(try String(contentsOfFile: folder.path + "/Info.plist", encoding: .utf8)
                == plist.replacingOccurrences(of: "1.2.3", with: "1.3.0").replacingOccurrences(of: "<string>42<", with: "<string>43<"))
    }

    @Test func thePlanListsEveryFileAndKey() throws {
        let folder = try TemporaryDirectory()
        try folder.write("VERSION", "1.2.3\n")
        try folder.write("Sources/Version.swift", "enum V {\n    static let current = \"1.2.3\"\n}\n")
        try folder.write("App/Info.plist", plist)
        let plan = try VersionStamper(fileSystem: LocalFileSystem(), root: folder.path).plan([
            .versionFile(path: folder.path + "/VERSION"),
            .pattern(path: folder.path + "/Sources/Version.swift", pattern: #"static let current = "(.*)""#),
            .infoPlist(path: folder.path + "/App/Info.plist"),
        ], version: "1.3.0", buildNumber: "43")
        #expect(plan.changes.map(\.description) == [
            "VERSION 1.2.3 -> 1.3.0",
            "Sources/Version.swift:2 1.2.3 -> 1.3.0",
            "App/Info.plist CFBundleShortVersionString 1.2.3 -> 1.3.0",
            "App/Info.plist CFBundleVersion 42 -> 43",
        ])
        #expect(plan.files == ["VERSION", "Sources/Version.swift", "App/Info.plist"])
    }

    @Test func problemsAreFoundBeforeAnythingIsWritten() throws {
        let folder = try TemporaryDirectory()
        try folder.write("Version.swift", "let other = 1\n")
        let stamper = VersionStamper(fileSystem: LocalFileSystem())
        #expect(throws: ReleaseError.patternNotFound(file: folder.path + "/Version.swift", pattern: #"version = "(.*)""#)) {
            try stamper.edits([.versionFile(path: folder.path + "/VERSION"),
                               .pattern(path: folder.path + "/Version.swift", pattern: #"version = "(.*)""#)], version: "1.0.0", buildNumber: nil)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/VERSION"))
        #expect(throws: ReleaseError.self) { try stamper.edits([.pattern(path: folder.path + "/Version.swift", pattern: "no group")], version: "1", buildNumber: nil) }
        try folder.write("Info.plist", "<plist><dict></dict></plist>")
        #expect(throws: ReleaseError.plistKeyMissing(file: folder.path + "/Info.plist", key: "CFBundleShortVersionString")) {
            try stamper.edits([.infoPlist(path: folder.path + "/Info.plist")], version: "1.0.0", buildNumber: nil)
        }
    }

    /// A value that mixes text and a build setting was skipped without a word before: now it is
    /// an error naming the file and key, and nothing is written.
    @Test func buildSettingExpressionsAreRefused() throws {
        let folder = try TemporaryDirectory()
        let text = plist.replacingOccurrences(of: "<string>1.2.3</string>", with: "<string>1.$(MINOR)</string>")
        try folder.write("Info.plist", text)
        let before = try Snapshot.of(folder.path)
        #expect(throws: ReleaseError.versionLocations(["'Info.plist': CFBundleShortVersionString is '1.$(MINOR)', an expression slipway cannot write; make it a literal value, or exactly $(MARKETING_VERSION)"])) {
            try VersionStamper(fileSystem: LocalFileSystem(), root: folder.path).stamp([.infoPlist(path: folder.path + "/Info.plist")], version: "2.0.0", buildNumber: nil)
        }
        #expect(try Snapshot.of(folder.path) == before)
    }
}
