import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway devices list|add|import` through the built binary against the App Store Connect
/// contract fake, and a later `signing sync` re-making the profiles that lack the new devices.
@Suite("slipway devices", .dedicatedThreads)
struct DevicesCommandTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    static let passphrase = "devices passphrase 3"
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let fake: AppStoreConnectContractFake

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-devices-cli")
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
    }

    var keyArguments: [String] { ["--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-env", "ASC_KEY", "--api-url", fake.url] }

    func slipway(_ arguments: [String]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: folder.path, environment: [
            "ASC_KEY": key.pemRepresentation, "SLIPWAY_SIGNING_PASSPHRASE": Self.passphrase, "MATCH_PASSWORD": nil, "CI": "false",
            "GITHUB_ACTIONS": nil, "SLIPWAY_CACHE_DIR": folder.path + "/cache",
        ])
    }

    func writes() throws -> [String] { try fake.state().requests.filter { $0.method != "GET" }.map(\.line) }

    @Test func listShowsEveryColumnAndFilters() throws {
        try fake.seedDevice(udid: "00008030-001A2B3C4D5E6F70", name: "Alice's iPhone")
        try fake.seedDevice(udid: "5D4C3B2A-1F0E-4D3C-8B2A-1F0E9D8C7B6A", name: "Build Mac", platform: "MAC_OS", status: "DISABLED",
                            deviceClass: "MAC")
        let list = try slipway(["devices", "list"] + keyArguments)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput == """
            NAME            UDID                                  CLASS   MODEL  PLATFORM  STATUS    ADDED
            Alice's iPhone  00008030-001A2B3C4D5E6F70             IPHONE  -      ios       enabled   2026-01-01
            Build Mac       5D4C3B2A-1F0E-4D3C-8B2A-1F0E9D8C7B6A  MAC     -      macos     disabled  2026-01-01

            """)
        let json = try slipway(["devices", "list", "--platform", "macos", "--status", "disabled", "--json"] + keyArguments)
        #expect(json.status == 0, "\(json.standardError)")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["name"] as? String } == ["Build Mac"])
        #expect(objects.first?["status"] as? String == "disabled" && objects.first?["addedDate"] as? String == "2026-01-01")
        let bad = try slipway(["devices", "list", "--platform", "tvos"] + keyArguments)
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("--platform must be ios or macos, not 'tvos'."))
    }

    @Test func addRegistersOnceAndSaysWhatDiffers() throws {
        let added = try slipway(["devices", "add", "--name", "Alice's iPhone", "--udid", "00008030-001A2B3C4D5E6F70"] + keyArguments)
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput == """
            added 'Alice's iPhone' (00008030-001A2B3C4D5E6F70, ios)
            added 1, already registered 0
            development and ad hoc profiles include a device only once re-made: run `slipway signing sync --type development` and \
            `slipway signing sync --type ad-hoc` (with your --bundle-id and --storage) to update them

            """)
        #expect(try writes() == ["POST /v1/devices"])

        // The same UDID (other case, other name): reported, not registered again; --rename renames it.
        let again = try slipway(["devices", "add", "--name", "Alice's new iPhone", "--udid", "00008030-001a2b3c4d5e6f70"] + keyArguments)
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput == """
            already registered 'Alice's new iPhone' (00008030-001a2b3c4d5e6f70, ios): registered as 'Alice's iPhone' (--rename renames it)
            added 0, already registered 1

            """)
        #expect(try writes() == ["POST /v1/devices"])
        let renamed = try slipway(["devices", "add", "--name", "Alice's new iPhone", "--udid", "00008030-001a2b3c4d5e6f70", "--rename"]
                                  + keyArguments)
        #expect(renamed.status == 0, "\(renamed.standardError)")
        #expect(renamed.standardOutput.hasPrefix("update 'Alice's new iPhone' (00008030-001a2b3c4d5e6f70, ios): renamed from 'Alice's iPhone'\n"))
        #expect(try writes() == ["POST /v1/devices", "PATCH /v1/devices/\(try #require(fake.stored("devices").first?["id"] as? String))"])
        #expect(try fake.stored("devices").first.flatMap { ($0["attributes"] as? [String: Any])?["name"] as? String } == "Alice's new iPhone")

        // A disabled device: said, and enabled with --enable.
        try fake.seedDevice(udid: "A1B2C3D4E5F60718293A4B5C6D7E8F9012345678", name: "Old iPad", status: "DISABLED", deviceClass: "IPAD")
        let disabled = try slipway(["devices", "add", "--name", "Old iPad", "--udid", "A1B2C3D4E5F60718293A4B5C6D7E8F9012345678"] + keyArguments)
        #expect(disabled.standardOutput.hasPrefix("already registered 'Old iPad' (A1B2C3D4E5F60718293A4B5C6D7E8F9012345678, ios): "
            + "disabled (--enable enables it)\n"))
        let enabled = try slipway(["devices", "add", "--name", "Old iPad", "--udid", "A1B2C3D4E5F60718293A4B5C6D7E8F9012345678", "--enable",
                                   "--json"] + keyArguments)
        #expect(enabled.status == 0, "\(enabled.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(enabled.standardOutput.utf8)) as? [String: Any])
        #expect(object["enabled"] as? Int == 1 && object["added"] as? Int == 0)
        #expect(try fake.stored("devices").filter { ($0["attributes"] as? [String: Any])?["status"] as? String == "ENABLED" }.count == 2)
    }

    @Test func badOptionsNameTheOptionAndSendNothing() throws {
        let udid = try slipway(["devices", "add", "--name", "Phone", "--udid", "not-a-udid"] + keyArguments)
        #expect(udid.status == 64)
        #expect(udid.standardError.contains("--udid: 'not-a-udid' is not a device UDID: use the 40 hex characters of older devices"))
        let name = try slipway(["devices", "add", "--name", " ", "--udid", "00008030-001A2B3C4D5E6F70"] + keyArguments)
        #expect(name.standardError.contains("--name: the device name is empty; give each device a name."))
        let noName = try slipway(["devices", "add", "--udid", "00008030-001A2B3C4D5E6F70"] + keyArguments)
        #expect(noName.status == 64)
        #expect(noName.standardError.contains("Missing expected argument '--name <name>'"))
        let noFile = try slipway(["devices", "import", "missing.txt"] + keyArguments)
        #expect(noFile.status == 2)
        #expect(noFile.standardError == "error: cannot read the devices file 'missing.txt': there is no such file. Give the path of a "
            + "tab-separated devices file.\n")
        #expect(try fake.state().requests.isEmpty)
    }

    @Test func importChecksEveryLineFirstThenRegistersTheNewOnes() throws {
        try fake.seedDevice(udid: "00008030-001A2B3C4D5E6F70", name: "Alice's iPhone")
        let bad = try folder.write("bad.txt", "Device ID\tDevice Name\tDevice Platform\n"
            + "00008030-001A2B3C4D5E6F71\tGood one\tios\n"
            + "0000803Z-001A2B3C4D5E6F72\tBad UDID\tios\n"
            + "00008030-001A2B3C4D5E6F73 Spaces instead of tabs\n")
        let before = try Snapshot.of(folder.path)
        let refused = try slipway(["devices", "import", "bad.txt"] + keyArguments)
        #expect(refused.status == 2)
        #expect(refused.standardError == "error: 2 problems in 'bad.txt'; nothing was registered:\n"
            + "  bad.txt:3: '0000803Z-001A2B3C4D5E6F72' is not a device UDID: use the 40 hex characters of older devices, the newer form "
            + "00008030-001A2B3C4D5E6F70 (8 and 16 hex characters), or a Mac's hardware UUID (Finder, Xcode's Devices window or System "
            + "Information show it)\n"
            + "  bad.txt:4: no tab between the columns; separate the UDID, the name and the optional platform with tabs, not spaces\n")
        #expect(try fake.state().requests.isEmpty)
        #expect(try Snapshot.of(folder.path) == before)
        #expect(FileManager.default.fileExists(atPath: bad))

        _ = try folder.write("devices.txt", "Device ID\tDevice Name\tDevice Platform\n"
            + "00008030-001a2b3c4d5e6f70\tAlice's iPhone\tios\n"
            + "00008030-001A2B3C4D5E6F71\tBob's iPhone\n"
            + "5D4C3B2A-1F0E-4D3C-8B2A-1F0E9D8C7B6A\tBuild Mac\tmac\n")
        let dry = try slipway(["devices", "import", "devices.txt", "--dry-run"] + keyArguments)
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput == """
            already registered 'Alice's iPhone' (00008030-001a2b3c4d5e6f70, ios)
            would add 'Bob's iPhone' (00008030-001A2B3C4D5E6F71, ios)
            would add 'Build Mac' (5D4C3B2A-1F0E-4D3C-8B2A-1F0E9D8C7B6A, macos)
            would add 2, already registered 1

            """)
        #expect(try writes().isEmpty)
        let done = try slipway(["devices", "import", "devices.txt"] + keyArguments)
        #expect(done.status == 0, "\(done.standardError)")
        #expect(done.standardOutput.contains("added 2, already registered 1\n"))
        #expect(try writes() == ["POST /v1/devices", "POST /v1/devices"])
        let rerun = try slipway(["devices", "import", "devices.txt"] + keyArguments)
        #expect(rerun.standardOutput.contains("added 0, already registered 3\n"))
        #expect(!rerun.standardOutput.contains("signing sync"))
        #expect(try writes().count == 2)
    }

    @Test func theYearlyDeviceLimitIsExplained() throws {
        try fake.set(["device_limit": "1"])
        try fake.seedDevice(udid: "00008030-001A2B3C4D5E6F70", name: "Alice's iPhone")
        let refused = try slipway(["devices", "add", "--name", "Bob's iPhone", "--udid", "00008030-001A2B3C4D5E6F71"] + keyArguments)
        #expect(refused.status == 1)
        #expect(refused.standardError == "error: App Store Connect refused the device 'Bob's iPhone' (00008030-001A2B3C4D5E6F71): the team "
            + "has registered as many devices of this kind as Apple allows in a membership year (Your development team has reached the "
            + "maximum number of registered iPhone devices.). Disabling a device does not free its place until the membership renews; "
            + "then remove the devices you no longer use on developer.apple.com (Certificates, Identifiers & Profiles → Devices) and run "
            + "the command again.\n")
        #expect(try fake.stored("devices").count == 1)

        // Part way through an import: what was registered before is listed, and said to stay.
        try fake.set(["device_limit": "2"])
        _ = try folder.write("devices.txt", "Device ID\tDevice Name\n00008030-001A2B3C4D5E6F70\tAlice's iPhone\n"
            + "00008030-001A2B3C4D5E6F71\tBob's iPhone\n00008030-001A2B3C4D5E6F72\tCarol's iPhone\n")
        let stopped = try slipway(["devices", "import", "devices.txt"] + keyArguments)
        #expect(stopped.status == 1)
        #expect(stopped.standardOutput == """
            already registered 'Alice's iPhone' (00008030-001A2B3C4D5E6F70, ios)
            added 'Bob's iPhone' (00008030-001A2B3C4D5E6F71, ios)

            """)
        #expect(stopped.standardError.hasPrefix("error: App Store Connect refused the device 'Carol's iPhone' (00008030-001A2B3C4D5E6F72)"))
        #expect(stopped.standardError.hasSuffix("and run the command again.\nRegistering stopped there; 1 device was registered or "
            + "changed before (listed above) and stays so. Run the command again once that is fixed: it skips them.\n"))
        #expect(try fake.stored("devices").count == 2)
    }

    /// Existing development, ad hoc and App Store profiles; `devices add` and `devices import`
    /// register new devices; then `signing sync` re-makes the development and ad hoc profiles with
    /// them and leaves the App Store profile alone.
    @Test func aLaterSigningSyncRemakesTheDevelopmentAndAdHocProfiles() throws {
        try fake.useSigningAuthority(try TestCertificateAuthority())
        try fake.seedBundleID(identifier: "com.example.app")
        try fake.seedDevice(udid: "00008030-001A2B3C4D5E6F70", name: "Alice's iPhone")
        func sync(_ type: String) throws -> CommandResult {
            let result = try slipway(["signing", "sync", "--type", type, "--bundle-id", "com.example.app", "--storage", "store",
                                      "--install", "none", "--no-readonly"] + keyArguments)
            #expect(result.status == 0, "\(type): \(result.standardError)")
            return result
        }
        func profile(_ type: String) throws -> [String: Any] {
            try #require(try fake.stored("profiles").first { ($0["attributes"] as? [String: Any])?["profileType"] as? String == type })
        }
        func deviceIDs(_ profile: [String: Any]) -> Set<String> {
            let devices = ((profile["relationships"] as? [String: Any])?["devices"] as? [String: Any])?["data"] as? [[String: Any]] ?? []
            return Set(devices.compactMap { $0["id"] as? String })
        }
        for type in ["development", "ad-hoc", "app-store"] { _ = try sync(type) }
        let appStoreBefore = try profile("IOS_APP_STORE")
        #expect(deviceIDs(try profile("IOS_APP_DEVELOPMENT")).count == 1)

        let added = try slipway(["devices", "add", "--name", "Bob's iPhone", "--udid", "00008030-001A2B3C4D5E6F71"] + keyArguments)
        #expect(added.status == 0, "\(added.standardError)")
        _ = try folder.write("devices.txt", "Device ID\tDevice Name\n00008030-001A2B3C4D5E6F72\tCarol's iPad\n")
        let imported = try slipway(["devices", "import", "devices.txt"] + keyArguments)
        #expect(imported.status == 0, "\(imported.standardError)")
        let all = Set(try fake.stored("devices").compactMap { $0["id"] as? String })
        #expect(all.count == 3)

        let development = try slipway(["signing", "sync", "--type", "development", "--bundle-id", "com.example.app", "--storage", "store",
                                       "--install-directory", "installed", "--no-readonly"] + keyArguments)
        #expect(development.status == 0, "\(development.standardError)")
        #expect(development.standardError.contains("it lacks 2 enabled device(s) (Bob's iPhone, Carol's iPad)"), "\(development.standardError)")
        #expect(development.standardOutput.contains("created the profile 'Slipway Development com.example.app'"))
        // The installed profile itself lists the new devices.
        let installed = folder.path + "/installed/Provisioning Profiles"
        let files = try FileManager.default.contentsOfDirectory(atPath: installed).filter { $0.hasSuffix(".mobileprovision") }
        #expect(files.count == 1)
        let profileText = String(decoding: try Data(contentsOf: URL(fileURLWithPath: installed + "/" + (files.first ?? ""))), as: UTF8.self)
        for udid in ["00008030-001A2B3C4D5E6F70", "00008030-001A2B3C4D5E6F71", "00008030-001A2B3C4D5E6F72"] {
            #expect(profileText.contains("<string>\(udid)</string>"), "\(udid)")
        }
        let adHoc = try sync("ad-hoc")
        #expect(adHoc.standardOutput.contains("created the profile 'Slipway AdHoc com.example.app'"), "\(adHoc.standardOutput)")
        let appStore = try sync("app-store")
        #expect(appStore.standardOutput.hasPrefix("nothing to create: the storage and App Store Connect agree\n"))
        #expect(deviceIDs(try profile("IOS_APP_DEVELOPMENT")) == all)
        #expect(deviceIDs(try profile("IOS_APP_ADHOC")) == all)
        #expect(try profile("IOS_APP_STORE")["id"] as? String == appStoreBefore["id"] as? String)
        #expect(try fake.stored("profiles").count == 3)
    }
}
