import Foundation
import Testing
import TestSupport
import TestThreads

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 42: the signing rule's folder of profiles when the profiles are huge or hostile: each is
/// a finding naming the file, nothing crashes, and nothing is read past its cap.
@Suite("slipway preflight: hostile provisioning profiles (issue 42)", .dedicatedThreads)
struct PreflightProfilesEdgeTests {
    let folder: TemporaryDirectory
    let authority: TestCertificateAuthority

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-preflight-profiles")
        authority = try TestCertificateAuthority()
        try PreflightFixture().write(in: folder.path)
        try FileManager.default.createDirectory(atPath: folder.path + "/profiles", withIntermediateDirectories: true)
        // Good profiles for both targets: every finding below is about the hostile file alone.
        let later = Date().addingTimeInterval(200 * 86_400)
        for bundleID in ["com.example.app", "com.example.app.widget"] {
            var builder = ProvisioningProfileBuilder()
            builder.bundleID = bundleID
            builder.expirationDate = later
            builder.creationDate = later.addingTimeInterval(-365 * 86_400)
            builder.certificates = [try PreflightFixture.distributionCertificate(authority, notValidAfter: later)]
            if bundleID == "com.example.app" { builder.extraStringEntitlements = ["aps-environment": "production"] }
            try put("AppStore_\(bundleID).mobileprovision", try builder.build(signedBy: authority))
        }
    }

    func put(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/profiles/" + name))
    }

    func run() throws -> CommandResult {
        let before = LargeTreeSnapshot.of(folder.path)
        let result = try CommandResult.run(Binaries.slipway, ["preflight", "--no-color", "--profiles", "profiles"], in: folder.path,
                                           environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil])
        #expect(LargeTreeSnapshot.of(folder.path) == before, "preflight wrote to the checkout")
        return result
    }

    static let citation = "  see: https://developer.apple.com/documentation/xcode/distributing-your-app-for-beta-testing-and-releases (ITMS-90161, ITMS-90046)\n"

    static func warning(_ file: String, _ why: String) -> String {
        "warning: profiles/\(file): [signing] cannot be read as a provisioning profile: \(why)\n"
            + "  fix: remove it from 'profiles', or download it again (slipway signing sync)\n"
    }

    @Test func theGoodProfilesPass() throws {
        let result = try run()
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.standardOutput.hasSuffix("0 errors, 0 warnings, 0 notes\n"), "\(result.standardOutput)")
    }

    @Test func aHugeProfileIsRefusedBeforeItIsRead() throws {
        let path = folder.path + "/profiles/Huge.mobileprovision"
        try Data().write(to: URL(fileURLWithPath: path))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 10 << 30)
        try handle.close()
        let result = try run()
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.standardOutput.hasPrefix(Self.warning("Huge.mobileprovision",
            "'\(path)' is larger than 4194304 bytes, the most Slipway reads of a provisioning profile. Check that it is the file you meant.")),
                "\(result.standardOutput)")
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #else
        getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        #expect(usage.ru_maxrss < 1 << 20, "a child process used \(usage.ru_maxrss) KiB")
    }

    @Test func aTruncatedEnvelopeAndAbsurdContentAreNamedFindings() throws {
        var builder = ProvisioningProfileBuilder()
        builder.certificates = [try PreflightFixture.distributionCertificate(authority, notValidAfter: Date().addingTimeInterval(86_400))]
        let whole = try builder.build(signedBy: authority)
        try put("Cut.mobileprovision", Array(whole[0..<(whole.count / 2)]))
        // A binary property list whose trailer claims 2^62 objects of 8-byte offsets at offset 8.
        var absurd = Array("bplist00".utf8) + [0x08]
        absurd += [0, 0, 0, 0, 0, 0, 8, 8] + [0, 0x40, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 8]
        builder.content = absurd
        try put("Absurd.mobileprovision", try builder.build(signedBy: authority))
        // A property list that nests deeper than any profile.
        builder.content = Array(("<plist version=\"1.0\">" + String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000) + "</plist>").utf8)
        try put("Deep.mobileprovision", try builder.build(signedBy: authority))
        let result = try run()
        #expect(result.status == 0, "\(result.standardOutput)")
        let out = result.standardOutput
        #expect(out.hasPrefix(Self.warning("Absurd.mobileprovision", "The provisioning profile 'profiles/Absurd.mobileprovision' does not hold a property list Slipway can read (the content is not a property list). Download the profile again.")
            + Self.citation
            + Self.warning("Cut.mobileprovision", "'profiles/Cut.mobileprovision' is not a provisioning profile: it is not a CMS signed envelope (it is not DER). Download the .mobileprovision again from the Apple Developer portal or App Store Connect.")
            + Self.citation
            + Self.warning("Deep.mobileprovision", "The provisioning profile 'profiles/Deep.mobileprovision' does not hold a property list Slipway can read (it nests arrays and dictionaries more than 512 levels deep; the file may be hostile, so slipway stopped reading it). Download the profile again.")
            + Self.citation), "\(out)")
        #expect(out.hasSuffix("0 errors, 3 warnings, 0 notes\n"), "\(out)")
    }

    @Test func aFolderOfTooManyProfilesIsRefusedNotRead() throws {
        for index in 0..<2_000 {
            let descriptor = open(folder.path + "/profiles/p\(index).mobileprovision", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            close(descriptor)
        }
        let result = try run()
        #expect(result.status == 2, "\(result.standardOutput)")
        #expect(result.standardOutput.hasPrefix("""
            error: profiles: [signing] 'profiles' holds 2002 provisioning profiles, more than the 2000 slipway reads; the signing rule did not read them
              fix: keep only this app's profiles in the folder (slipway signing sync installs those)

            """), "\(result.standardOutput)")
    }
}
