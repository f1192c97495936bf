import Basics
import Testing
import TestSupport
import TestThreads
import Xcode

@Suite("Export methods and ExportOptions.plist", .dedicatedThreads)
struct ExportOptionsTests {
    @Test("current names and deprecated aliases")
    func methods() throws {
        #expect(try ExportMethod(parsing: "app-store-connect") == .appStoreConnect)
        #expect(try ExportMethod(parsing: "app-store") == .appStoreConnect)
        #expect(try ExportMethod(parsing: "ad-hoc") == .releaseTesting)
        #expect(try ExportMethod(parsing: "development") == .debugging)
        #expect(try ExportMethod(parsing: "developer-id") == .developerID)
        #expect(ExportMethod.deprecationNote(for: "release-testing") == nil)
        #expect(ExportMethod.deprecationNote(for: "ad-hoc") == "Export method 'ad-hoc' is deprecated since Xcode 15.3; Slipway writes 'release-testing'. Write 'method: release-testing' to silence this note.")
    }

    @Test("an unknown method names the valid ones and the nearest")
    func unknownMethod() {
        #expect {
            try ExportMethod(parsing: "app-stor-connect")
        } throws: { error in
            (error as? XcodeProjectError)?.errorDescription == "Unknown export method 'app-stor-connect'. Did you mean 'app-store-connect'? Valid methods: app-store-connect, release-testing, debugging, enterprise, developer-id, mac-application, validation (and the deprecated ad-hoc, app-store, development)."
        }
    }

    @Test("the plist: keys sorted, nested profiles sorted, escaped")
    func plist() throws {
        let options = ExportOptions(
            method: .appStoreConnect, teamID: "ABCDE12345", signingStyle: .manual,
            provisioningProfiles: ["com.example.app.widget": "Widget <AppStore>", "com.example.app": "6f2c9a1e-0000-4000-8000-000000000001"],
            signingCertificate: "Apple Distribution", manageAppVersionAndBuildNumber: false, uploadSymbols: true,
            destination: .export, stripSwiftSymbols: true, thinning: "<none>", iCloudContainerEnvironment: .production)
        try options.validate()
        #expect(options.plist() == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>destination</key>
            \t<string>export</string>
            \t<key>iCloudContainerEnvironment</key>
            \t<string>Production</string>
            \t<key>manageAppVersionAndBuildNumber</key>
            \t<false/>
            \t<key>method</key>
            \t<string>app-store-connect</string>
            \t<key>provisioningProfiles</key>
            \t<dict>
            \t\t<key>com.example.app</key>
            \t\t<string>6f2c9a1e-0000-4000-8000-000000000001</string>
            \t\t<key>com.example.app.widget</key>
            \t\t<string>Widget &lt;AppStore&gt;</string>
            \t</dict>
            \t<key>signingCertificate</key>
            \t<string>Apple Distribution</string>
            \t<key>signingStyle</key>
            \t<string>manual</string>
            \t<key>stripSwiftSymbols</key>
            \t<true/>
            \t<key>teamID</key>
            \t<string>ABCDE12345</string>
            \t<key>thinning</key>
            \t<string>&lt;none&gt;</string>
            \t<key>uploadSymbols</key>
            \t<true/>
            </dict>
            </plist>

            """)
    }

    @Test("what is written reads back the same")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let options = ExportOptions(
            method: .releaseTesting, teamID: "Z9Y8X7W6V5", signingStyle: .automatic,
            provisioningProfiles: ["com.example.app": "App AdHoc"], manageAppVersionAndBuildNumber: true)
        let path = try directory.write("ExportOptions.plist", options.plist())
        let read = try ExportOptions.read(path: path, fileSystem: LocalFileSystem())
        #expect(read.options == options)
        #expect(read.notes.isEmpty)
    }

    @Test("a given file with a deprecated method reads with a note")
    func deprecatedInFile() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("ExportOptions.plist", Self.plist("<key>method</key><string>ad-hoc</string>"))
        let read = try ExportOptions.read(path: path, fileSystem: LocalFileSystem())
        #expect(read.options.method == .releaseTesting)
        #expect(read.notes.count == 1)
    }

    @Test("a given file with bad values: every problem, naming the file")
    func badFile() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("ExportOptions.plist", Self.plist("""
            <key>method</key><string>appstore</string><key>teamID</key><string>abc</string>
            <key>signingStyle</key><string>Manual</string><key>uploadSymbols</key><string>YES</string>
            """))
        #expect {
            try ExportOptions.read(path: path, fileSystem: LocalFileSystem())
        } throws: { error in
            (error as? XcodeProjectError)?.errorDescription == "Export options in '\(path)': Unknown export method 'appstore'. Did you mean 'app-store'? Valid methods: app-store-connect, release-testing, debugging, enterprise, developer-id, mac-application, validation (and the deprecated ad-hoc, app-store, development); 'signingStyle' is 'Manual', not one of 'manual', 'automatic'; 'uploadSymbols' is not a boolean (<true/> or <false/>); team id 'abc' is not 10 uppercase letters or digits (find it in the Apple Developer account, Membership)."
        }
    }

    @Test("a file that is not a property list names the file")
    func notAPlist() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("ExportOptions.plist", "<plist><dict><key>method</key>")
        #expect {
            try ExportOptions.read(path: path, fileSystem: LocalFileSystem())
        } throws: { error in
            (error as? XcodeProjectError)?.errorDescription == "'\(path)' is not a readable property list: it ends before its elements are closed. Fix or recreate the file."
        }
    }

    @Test("typed options with problems: all of them, in order")
    func invalidTyped() {
        let options = ExportOptions(
            method: .enterprise, teamID: "ABCDE1234", provisioningProfiles: ["com example": " "],
            signingCertificate: "", destination: .upload, thinning: "")
        #expect(throws: XcodeProjectError.invalidExportOptions(path: nil, problems: [
            "team id 'ABCDE1234' is not 10 uppercase letters or digits (find it in the Apple Developer account, Membership)",
            "provisioning profile key 'com example' is not a bundle id (letters, digits, '.' and '-')",
            "the provisioning profile for 'com example' is empty (give its name or UUID)",
            "signing certificate is empty (give its name, e.g. 'Apple Distribution', or SHA-1)",
            "thinning is empty (use '<none>', '<thin-for-all-variants>' or a device model such as 'iPhone17,1')",
            "destination 'upload' needs method 'app-store-connect' or 'developer-id', not 'enterprise'",
        ])) { try options.validate() }
    }

    static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(body)
        </dict>
        </plist>
        """
    }
}
