import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway run --dry-run` of an appstore.upload lane on crafted .ipa files, through the built
/// binary: the DAG-bomb Info.plist under an address-space and CPU rlimit ends with the budget
/// error, and a zip whose zip64 field claims 2^64 - 1 bytes ends with an error (exit 1), not a
/// trap (exit 132). Nothing in the project changes.
@Suite(.dedicatedThreads) struct HostileIPACommandTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let folder: TemporaryDirectory
    let key = P256.Signing.PrivateKey()

    init() throws {
        folder = try TemporaryDirectory(prefix: "hostile-ipa-cli")
        _ = try folder.write("lanes/ship.yml", """
            description: Ship to TestFlight
            secrets: [ASC_KEY]
            steps:
              - appstore.upload:
                  ipa: build/Evil.ipa
                  issuer-id: \(Self.issuer)
                  key-id: ABC123DEFG
                  key: "${{ secrets.ASC_KEY }}"
                  api-url: http://127.0.0.1:9/v1
            finally:
              - run: echo cleanup-after-ipa
            """)
    }

    /// Writes the .ipa, runs the lane's dry run (under `prlimit` when `limits` are given) and
    /// checks that the project is unchanged.
    func dryRun(_ ipa: [UInt8], limits: [String] = []) throws -> CommandResult {
        try FileManager.default.createDirectory(atPath: folder.path + "/build", withIntermediateDirectories: true)
        try Data(ipa).write(to: URL(fileURLWithPath: folder.path + "/build/Evil.ipa"))
        let before = try Snapshot.of(folder.path)
        let command = limits.isEmpty ? Binaries.slipway : "/usr/bin/prlimit"
        let arguments = (limits.isEmpty ? [] : limits + ["--", Binaries.slipway]) + ["run", "ship", "--dry-run", "--no-color"]
        let result = try CommandResult.run(command, arguments, in: folder.path,
                                           environment: ["ASC_KEY": key.pemRepresentation, "NO_COLOR": "1", "GITHUB_ACTIONS": nil, "CI": nil])
        #expect(try Snapshot.of(folder.path) == before, "the project changed")
        return result
    }

    /// A committed `build/Evil.ipa -> a file outside` would be streamed to App Store Connect: the
    /// door refuses it in the plan, naming the link, and nothing of the file is read.
    @Test func anIPALinkedOutOfTheProjectIsRefused() throws {
        let outside = try TemporaryDirectory(prefix: "hostile-ipa-outside")
        _ = try outside.write("secret.ipa", "CANARY-ipa-outside\n")
        try FileManager.default.createDirectory(atPath: folder.path + "/build", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/build/Evil.ipa", withDestinationPath: outside.path + "/secret.ipa")
        let before = try Snapshot.of(folder.path)
        let result = try CommandResult.run(Binaries.slipway, ["run", "ship", "--dry-run", "--no-color"], in: folder.path,
                                           environment: ["ASC_KEY": key.pemRepresentation, "NO_COLOR": "1", "GITHUB_ACTIONS": nil, "CI": nil])
        let output = result.standardOutput + result.standardError
        #expect(result.status == 1, "\(output)")
        #expect(output.contains("✗ appstore.upload would fail"), "\(output)")
        #expect(output.contains("'build/Evil.ipa' is a symbolic link to '\(outside.path)/secret.ipa', outside the project."), "\(output)")
        #expect(!output.contains("CANARY"), "\(output)")
        #expect(try Snapshot.of(folder.path) == before, "the project changed")
    }

    @Test func theDAGBombEndsWithTheBudgetErrorWithinRlimits() throws {
        let ipa = HostileArchive.zip([HostileArchive.Entry(name: "Payload/Example.app/Info.plist", data: HostileArchive.dagBombPlist())])
        // Foundation's reader needed 3.7 GB and 68 s for this file; 800 MB of address space and
        // 20 s of CPU are far more than the budgeted reader needs, and far less than expansion.
        let result = try dryRun(ipa, limits: ["--as=800000000", "--cpu=20"])
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        let message = "'Payload/Example.app/Info.plist' in '\(folder.path)/build/Evil.ipa' exceeds slipway's property-list budget: "
            + "it expands to more than 1000000 values (each shared reference counted every time it is used). "
            + "The archive may be hostile (a small file that expands to a huge one); slipway stopped reading it. Check where the .ipa came from."
        #expect(result.standardOutput.contains("✗ appstore.upload would fail\n"))
        #expect(result.standardOutput.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == message },
                "\(result.standardOutput)")
    }

    @Test func aZip64SizeOfTwoToTheSixtyFourIsAnErrorNotATrap() throws {
        let ipa = HostileArchive.zip([HostileArchive.Entry(name: "Payload/Example.app/Info.plist", data: HostileArchive.infoPlist,
                                                           claimedCompressedSize: .max)])
        let result = try dryRun(ipa)
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        let message = "'\(folder.path)/build/Evil.ipa' is not a readable .ipa (zip) archive: "
            + "the entry 'Payload/Example.app/Info.plist' claims data past the end of the archive's contents. "
            + "Give the .ipa that xcode.export (or Xcode) wrote."
        #expect(result.standardOutput.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == message },
                "\(result.standardOutput)")
        #expect(result.standardOutput.contains("✗ lane 'ship': the dry run found 1 step(s) that would fail (appstore.upload); nothing was changed."))
        // No trap: the lane goes on to its finally: steps (planned, in a dry run).
        #expect(result.standardOutput.contains("echo cleanup-after-ipa"), "\(result.standardOutput)")
    }

    @Test func aLongXMLArrayIsReadInLinearTimeWithinRlimits() throws {
        // 300,000 elements: reading them with a copy per append (quadratic) needs hundreds of
        // gigabytes of copying, far past 20 s of CPU; read linearly it is a second or two.
        let padding = String(repeating: "<true/>", count: 300_000)
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.app</string>\
            <key>CFBundleShortVersionString</key><string>1.2.0</string><key>CFBundleVersion</key><string>42</string>\
            <key>Padding</key><array>\(padding)</array></dict></plist>
            """
        let ipa = HostileArchive.zip([HostileArchive.Entry(name: "Payload/Example.app/Info.plist", data: Array(plist.utf8))])
        let result = try dryRun(ipa, limits: ["--as=800000000", "--cpu=20"])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("(com.example.app 1.2.0 build 42, \(ipa.count) bytes)"), "\(result.standardOutput)")
    }
}
