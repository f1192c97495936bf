import Basics
import Foundation
import Lanes
import Publish
import Steps
import Testing
import TestSupport
import TestThreads

/// A whole release lane, archive → checksums → sign → upload, run for real with the embedded
/// directory destination; the published files are then checked with signify-openbsd and
/// sha256sum, as a user downloading the release would.
@Suite(.dedicatedThreads) struct PublishLaneTests {
    static let passphrase = "lane-passphrase-\(UInt32.random(in: 1000...9999))"

    static let lane = """
        description: Package, sign and publish without any account
        secrets: [SIGNING_KEY_PASSPHRASE]
        steps:
          - archive: { files: [build/tool, LICENSE], output: dist/tool-1.0.tar.gz, prefix: tool-1.0 }
            id: archive
          - checksums: { files: ["dist/*.tar.gz"] }
            id: sums
          - sign:
              files: ["${{ steps.archive.outputs.path }}", "${{ steps.sums.outputs.path }}"]
              key: keys/release.sec
              passphrase: "${{ secrets.SIGNING_KEY_PASSPHRASE }}"
              public-key: keys/release.pub
            id: sign
          - upload: { files: ["dist/*"], directory: published }
            id: upload
        """

    func fixture() throws -> LaneFixture {
        let fixture = try LaneFixture(["release": Self.lane], environment: ["SIGNING_KEY_PASSPHRASE": Self.passphrase])
        try fixture.write("build/tool", "#!/bin/sh\necho tool 1.0\n")
        chmod(fixture.path + "/build/tool", 0o755)
        try fixture.write("LICENSE", "MIT\n")
        let keys = try SignifyKeyGenerator().generate(name: "release", passphrase: Array(Self.passphrase.utf8))
        try fixture.write("keys/release.sec", keys.secretKey.text)
        try fixture.write("keys/release.pub", keys.publicKey.text)
        return fixture
    }

    func shell(_ command: String, in directory: String) throws -> String {
        let result = try CommandResult.run("/bin/sh", ["-c", command], in: directory)
        #expect(result.status == 0, "\(command): \(result.standardError)")
        return result.standardOutput
    }

    @Test func releaseLaneArchivesSignsAndPublishesToADirectory() async throws {
        let fixture = try fixture()
        let outcome = try await fixture.run("release")
        for step in ["archive", "sums", "sign", "upload"] { #expect(outcome.status(step) == .succeeded, "\(step): \(outcome.console)") }
        #expect(outcome.outputs("archive")["path"] == "dist/tool-1.0.tar.gz")
        #expect(outcome.outputs("sign")["signatures"] == "dist/SHA256SUMS.sig\ndist/tool-1.0.tar.gz.sig")
        let published = fixture.path + "/published"
        #expect(try FileManager.default.contentsOfDirectory(atPath: published).sorted()
            == ["SHA256SUMS", "SHA256SUMS.sig", "tool-1.0.tar.gz", "tool-1.0.tar.gz.sig"])
        #expect(outcome.outputs("upload")["urls"]?.split(separator: "\n").count == 4)
        try FileManager.default.copyItem(atPath: fixture.path + "/keys/release.pub", toPath: published + "/release.pub")
        #expect(try shell("signify-openbsd -V -p release.pub -m tool-1.0.tar.gz && signify-openbsd -V -p release.pub -m SHA256SUMS",
                          in: published) == "Signature Verified\nSignature Verified\n")
        #expect(try shell("sha256sum -c SHA256SUMS", in: published) == "tool-1.0.tar.gz: OK\n")
        #expect(!outcome.console.contains(Self.passphrase))
        #expect(outcome.events.allSatisfy { (try? JSONFormatting.line($0))?.contains(Self.passphrase) == false })
    }

    @Test func rerunningTheLaneChangesNothing() async throws {
        let fixture = try fixture()
        _ = try await fixture.run("release")
        let first = try fixture.snapshot().filter { !$0.key.hasPrefix(".slipway/") }
        let again = try await fixture.run("release")
        #expect(again.summary.status == .succeeded)
        #expect(again.console.contains("already there, skipped"))
        let second = try fixture.snapshot().filter { !$0.key.hasPrefix(".slipway/") }
        #expect(first == second)
    }

    @Test func dryRunPlansWithoutWriting() async throws {
        let fixture = try fixture()
        let before = try fixture.snapshot()
        let outcome = try await fixture.run("release") { $0.isDryRun = true }
        let plans = outcome.events.filter { $0.event == .plan }.flatMap { $0.effects ?? [] }
        #expect(plans.contains("write: dist/tool-1.0.tar.gz (tar.gz of build/tool, LICENSE inside tool-1.0/, time stamps 0)"))
        #expect(plans.contains("write: upload dist/* to \(fixture.path)/published (skipping identical files)"))
        #expect(try fixture.snapshot().filter { !$0.key.hasPrefix(".slipway/") } == before)
    }

    @Test func codesignIsRefusedAtValidationOffMacOS() async throws {
        let text = "steps:\n  - sign.codesign: { files: [build/App.app], identity: \"-\" }\n"
        let lane = try LaneFileParser.parse(text, name: "mac", file: "lanes/mac.yml")
        let registry = StepRegistry(extra: [StepKind(SignCodesignStep.self)])
        do {
            _ = try await LaneValidator(registry: registry, platform: .linux).validate(lane)
            Issue.record("expected the lane to be refused")
        } catch let error as DiagnosticsError {
            #expect(error.diagnostics.map(\.message) == [
                "step 'sign.codesign' runs only on macos, not on linux; run this lane on macos or remove the step; to check this lane from linux, run 'slipway validate mac --platform macos' or 'slipway run mac --dry-run --platform macos'",
            ])
        }
        _ = try await LaneValidator(registry: registry, platform: .macOS).validate(lane)
        if Platform.current == .linux {
            let fixture = try LaneFixture(["mac": text])
            #expect(await fixture.problems("mac") == [
                "lanes/mac.yml:2:5: error: step 'sign.codesign' runs only on macos, not on linux; run this lane on macos or remove the step; to check this lane from linux, run 'slipway validate mac --platform macos' or 'slipway run mac --dry-run --platform macos'",
            ])
        }
    }
}
