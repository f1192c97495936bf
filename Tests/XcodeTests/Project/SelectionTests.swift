import Basics
import Foundation
import Testing
import TestSupport
import TestThreads
import Xcode

@Suite("Choosing an Xcode and reading archives", .dedicatedThreads)
struct SelectionTests {
    let fileSystem = LocalFileSystem()

    static func versionPlist(_ version: String, build: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>BuildAliasOf</key>
        \t<string>IDEFrameworks</string>
        \t<key>CFBundleShortVersionString</key>
        \t<string>\(version)</string>
        \t<key>CFBundleVersion</key>
        \t<string>23506</string>
        \t<key>ProductBuildVersion</key>
        \t<string>\(build)</string>
        </dict>
        </plist>
        """
    }

    /// Xcode-15.4.app, Xcode-16.0.app, Xcode-16.2.app, Xcode.app (16.1, read from Info.plist),
    /// Xcode-16.3-beta.app ("16.3 beta 2"), Xcode-broken.app (no plist), Simulator.app.
    func applications() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try folder.write("Xcode-15.4.app/Contents/version.plist", Self.versionPlist("15.4", build: "15F31d"))
        try folder.write("Xcode-16.0.app/Contents/version.plist", Self.versionPlist("16.0", build: "16A242d"))
        try folder.write("Xcode-16.2.app/Contents/version.plist", Self.versionPlist("16.2", build: "16C5032a"))
        try folder.write("Xcode.app/Contents/Info.plist", Self.versionPlist("16.1", build: "16B40"))
        try folder.write("Xcode-16.3-beta.app/Contents/version.plist", Self.versionPlist("16.3 beta 2", build: "16E5121h"))
        try folder.write("Xcode-broken.app/Contents/README", "")
        try folder.write("Simulator.app/Contents/version.plist", Self.versionPlist("16.0", build: "x"))
        return folder
    }

    @Test("constraints pick the highest match", arguments: [
        ("16.2", "Xcode-16.2.app"), ("16", "Xcode-16.3-beta.app"), ("^16", "Xcode-16.3-beta.app"),
        ("~16.1", "Xcode.app"), (">=16.1, <16.3", "Xcode-16.2.app"), ("15", "Xcode-15.4.app"), ("<16", "Xcode-15.4.app"),
        ("=16.0", "Xcode-16.0.app"), (">16.2", "Xcode-16.3-beta.app"), ("<=16.0", "Xcode-16.0.app"),
    ])
    func choose(constraint: String, app: String) throws {
        let folder = try applications()
        let selection = try XcodeSelection.choose(
            constraint: constraint, environment: Environment([:]), applicationsFolder: folder.path, fileSystem: fileSystem)
        #expect(selection.developerDirectory == folder.path + "/" + app + "/Contents/Developer")
        #expect(selection.source == .applicationsFolder)
    }

    @Test("without a constraint the highest wins; build numbers are read")
    func highest() throws {
        let folder = try applications()
        let installed = XcodeSelection.installed(in: folder.path, fileSystem: fileSystem)
        #expect(installed.map(\.version.description) == ["15.4", "16.0", "16.1", "16.2", "16.3"])
        #expect(installed.map(\.build) == ["15F31d", "16A242d", "16B40", "16C5032a", "16E5121h"])
        let selection = try XcodeSelection.choose(constraint: nil, environment: Environment([:]), applicationsFolder: folder.path, fileSystem: fileSystem)
        #expect(selection.xcode?.version == XcodeVersion(major: 16, minor: 3))
    }

    @Test("DEVELOPER_DIR wins")
    func environment() throws {
        let folder = try applications()
        let developer = folder.path + "/Xcode-15.4.app/Contents/Developer"
        let selection = try XcodeSelection.choose(
            constraint: "^16", environment: Environment(["DEVELOPER_DIR": developer]), applicationsFolder: folder.path, fileSystem: fileSystem)
        #expect(selection.developerDirectory == developer)
        #expect(selection.source == .environment)
        #expect(selection.xcode?.version == XcodeVersion(major: 15, minor: 4))
    }

    @Test("nothing matches: the Xcodes found are listed")
    func noMatch() throws {
        let folder = try applications()
        #expect {
            try XcodeSelection.choose(constraint: "^17", environment: Environment([:]), applicationsFolder: folder.path, fileSystem: fileSystem)
        } throws: { error in
            (error as? XcodeProjectError)?.errorDescription == "No Xcode in '\(folder.path)' matches '^17' (found Xcode-15.4.app (15.4), "
                + "Xcode-16.0.app (16.0), Xcode.app (16.1), Xcode-16.2.app (16.2), Xcode-16.3-beta.app (16.3)). Install a matching Xcode or set DEVELOPER_DIR."
        }
        let empty = try TemporaryDirectory()
        #expect(throws: XcodeProjectError.noMatchingXcode(constraint: "any", folder: empty.path, found: [])) {
            try XcodeSelection.choose(constraint: nil, environment: Environment([:]), applicationsFolder: empty.path, fileSystem: fileSystem)
        }
    }

    @Test("malformed constraints", arguments: [
        ("", "Xcode version constraint '': it is empty or has an empty clause."),
        ("16.2,", "Xcode version constraint '16.2,': it is empty or has an empty clause."),
        ("~>16", "Xcode version constraint '~>16': '~>16' is not a version with an optional ^, ~, >=, >, <=, < or =."),
        ("16.x", "Xcode version constraint '16.x': '16.x' is not a version with an optional ^, ~, >=, >, <=, < or =."),
    ])
    func malformedConstraint(text: String, message: String) {
        #expect {
            try XcodeVersionConstraint(text)
        } throws: { error in
            (error as? XcodeProjectError)?.errorDescription == message + " Examples: '16.2', '16', '^16', '~16.2', '>=16.1, <17'."
        }
    }

    static func archivePlist(_ application: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(application)
        \t<key>ArchiveVersion</key>
        \t<integer>2</integer>
        \t<key>CreationDate</key>
        \t<date>2025-01-15T10:20:30Z</date>
        \t<key>Name</key>
        \t<string>App</string>
        \t<key>SchemeName</key>
        \t<string>App</string>
        </dict>
        </plist>
        """
    }

    @Test("an archive's Info.plist")
    func archive() throws {
        let directory = try TemporaryDirectory()
        try directory.write("App.xcarchive/Info.plist", Self.archivePlist("""
            \t<key>ApplicationProperties</key>
            \t<dict>
            \t\t<key>ApplicationPath</key><string>Applications/App.app</string>
            \t\t<key>Architectures</key><array><string>arm64</string></array>
            \t\t<key>CFBundleIdentifier</key><string>com.example.app</string>
            \t\t<key>CFBundleShortVersionString</key><string>2.3.0</string>
            \t\t<key>CFBundleVersion</key><string>417</string>
            \t\t<key>SigningIdentity</key><string>Apple Distribution: Example Ltd (ABCDE12345)</string>
            \t\t<key>Team</key><string>ABCDE12345</string>
            \t</dict>
            """))
        let archive = try XcodeArchive.read(path: directory.path + "/App.xcarchive", fileSystem: fileSystem)
        #expect(archive.bundleIdentifier == "com.example.app")
        #expect(archive.version == "2.3.0")
        #expect(archive.buildNumber == "417")
        #expect(archive.applicationFullPath == directory.path + "/App.xcarchive/Products/Applications/App.app")
        #expect(archive.team == "ABCDE12345")
        #expect(archive.schemeName == "App")
        #expect(archive.creationDate == Date(timeIntervalSince1970: 1_736_936_430))
    }

    @Test("archives that lack what the steps need, or are missing")
    func badArchive() throws {
        let directory = try TemporaryDirectory()
        let library = directory.path + "/Lib.xcarchive"
        try directory.write("Lib.xcarchive/Info.plist", Self.archivePlist(""))
        #expect {
            try XcodeArchive.read(path: library, fileSystem: fileSystem)
        } throws: { error in
            (error as? XcodeProjectError)?.errorDescription == "Archive '\(library)': Info.plist has no ApplicationProperties "
                + "(is it an app's archive? set SKIP_INSTALL=YES on the libraries it embeds)."
        }
        let partial = directory.path + "/Partial.xcarchive"
        try directory.write("Partial.xcarchive/Info.plist", Self.archivePlist(
            "<key>ApplicationProperties</key><dict><key>CFBundleIdentifier</key><string>com.example.app</string></dict>"))
        #expect(throws: XcodeProjectError.invalidArchive(path: partial, problem: "Info.plist has no ApplicationProperties.CFBundleShortVersionString")) {
            try XcodeArchive.read(path: partial, fileSystem: fileSystem)
        }
        #expect(throws: FileSystemError.notFound(path: directory.path + "/Gone.xcarchive/Info.plist")) {
            try XcodeArchive.read(path: directory.path + "/Gone.xcarchive", fileSystem: fileSystem)
        }
    }
}
