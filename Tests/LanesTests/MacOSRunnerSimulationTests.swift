import Basics
import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 25, point 6: an iOS release lane (version.bump → signing.sync → xcode.archive →
/// xcode.export → a Linux upload) exported with `slipway ci export --to github-actions` and run
/// by GitHubActionsSimulator (SIMULATION — not GitHub) with a STAND-IN MAC: `runs-on: macos-*`
/// jobs find `slipway-macos-standin` as `slipway` (the same CLI reporting macOS), the app
/// xcodebuild stand-in (Fixtures/app-standin: products carry the project's version as it is
/// then, a real zip .ipa, and no signing without an identity in this runner's keychains) and
/// the `security` stand-in keeping its keychains under each job's HOME. Nothing here is Xcode,
/// macOS or GitHub.
@Suite("an iOS lane on a simulated macOS runner (stand-ins, not GitHub)", .dedicatedThreads)
struct MacOSRunnerSimulationTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    static let passphrase = "runner passphrase 7"

    static func lane(jobs: String = "", signingRunsOn: String = "") -> String {
        """
        description: Version, sign, archive and export the app on a Mac; publish the .ipa from Linux
        inputs:
          version: { default: "2.3.0" }
          build-number: { default: "77" }
        secrets: [SIGNING_PASSPHRASE]
        \(jobs)steps:
          - version.bump:
              strategy: "${{ inputs.version }}"
              xcodeproj: App.xcodeproj
              build-number: "${{ inputs.build-number }}"
            id: version
          - signing.sync:
              type: app-store
              bundle-ids: [com.example.app]
              storage: signing-store
              passphrase: "${{ secrets.SIGNING_PASSPHRASE }}"
            id: signing\(signingRunsOn)
          - xcode.archive: { project: App.xcodeproj, scheme: App, destinations: ["generic/platform=iOS"] }
            id: archive
          - xcode.export:
              archive: "${{ steps.archive.outputs.archive }}"
              method: app-store-connect
              team-id: "${{ steps.signing.outputs.team-id }}"
              signing-style: manual
              signing-certificate: "${{ steps.signing.outputs.certificate-name }}"
              profiles: "${{ steps.signing.outputs.profiles }}"
            id: export
            artifacts: [build/export/App.ipa]
          - upload: { to: directory, directory: published, files: ["${{ steps.export.outputs.path }}"] }
            id: publish
            runs-on: linux
            artifacts: [published/App.ipa]
        """
    }

    /// The origin repository, the stand-in Mac's PATH folder and the record of xcodebuild calls.
    struct Setup {
        let origin: GitFixture
        let mac: TemporaryDirectory
        let storageMaker: LaneFixture
        let fake: AppStoreConnectContractFake
        var calls: String { mac.path + "/xcodebuild-calls.jsonl" }

        init(lane: String) async throws {
            // The team's signing storage, made once by a member's writable sync against the CONTRACT FAKE.
            let key = P256.Signing.PrivateKey()
            fake = try AppStoreConnectContractFake(keys: [.init(issuerID: MacOSRunnerSimulationTests.issuer, keyID: "ABC123DEFG",
                                                                publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
            try fake.useSigningAuthority(try TestCertificateAuthority())
            try fake.seedBundleID(identifier: "com.example.app")
            storageMaker = try LaneFixture(["member": """
                secrets: [ASC_KEY, SIGNING_PASSPHRASE]
                steps:
                  - signing.sync:
                      type: app-store
                      bundle-ids: [com.example.app]
                      storage: signing-store
                      passphrase: "${{ secrets.SIGNING_PASSPHRASE }}"
                      readonly: false
                      install: none
                      issuer-id: \(MacOSRunnerSimulationTests.issuer)
                      key-id: ABC123DEFG
                      key: "${{ secrets.ASC_KEY }}"
                      api-url: \(fake.url)
                    id: signing
                """], environment: ["ASC_KEY": key.pemRepresentation, "SIGNING_PASSPHRASE": MacOSRunnerSimulationTests.passphrase, "CI": "false"])
            let member = try await storageMaker.run("member")
            try #require(member.status("signing") == .succeeded, "\(member.console)")

            origin = try GitFixture(prefix: "slipway-macrunner-origin")
            try FileManager.default.copyItem(atPath: storageMaker.path + "/signing-store", toPath: origin.path + "/signing-store")
            try VersionedXcodeProject.write(targets: [.init("App", settings: [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.app"),
                                                                              ("DEVELOPMENT_TEAM", "AB12CD34EF")],
                                                            xcconfig: "Config/Version.xcconfig")], in: origin.path)
            try origin.commit("chore: the app", files: [
                "lanes/ios.yml": lane,
                "Config/Version.xcconfig": "// The app's version\nMARKETING_VERSION = 2.2.1\nCURRENT_PROJECT_VERSION = 76\n",
                "App.xcodeproj/xcshareddata/xcschemes/App.xcscheme": XcodeLaneTests.scheme,
                ".gitignore": ".slipway/\n.build/\nbuild/\npublished/\n",
            ])

            // The STAND-IN Mac's tools.
            mac = try TemporaryDirectory(prefix: "slipway-macrunner-bin")
            try FileManager.default.createSymbolicLink(atPath: mac.path + "/slipway", withDestinationPath: Binaries.macOSStandInSlipway)
            try FileManager.default.createSymbolicLink(atPath: mac.path + "/xcodebuild",
                                                       withDestinationPath: MacOSRunnerSimulationTests.here + "/Fixtures/app-standin/xcodebuild")
            try SecurityStandIn.installScript(in: mac.path)
        }

        func simulator(workflow: String) throws -> GitHubActionsSimulator {
            let base = CIExportSimulationTests.environment
            return try GitHubActionsSimulator(workflow: workflow, origin: origin.path, environment: base, runnerEnvironments: [
                "macOS": ["PATH": mac.path + ":" + (base["PATH"] ?? ""), "SLIPWAY_STANDIN_CALLS": calls,
                          "SLIPWAY_STANDIN_XCCONFIG": "Config/Version.xcconfig"],
            ])
        }

        func export() throws -> String {
            let export = try CommandResult.run(Binaries.slipway, ["ci", "export", "ios", "--to", "github-actions", "--slipway-on-path"], in: origin.path)
            try #require(export.status == 0, "\(export.standardError)")
            return export.standardOutput
        }

        /// The stand-in xcodebuild's calls: (job, action).
        func xcodebuildCalls() throws -> [(job: String, action: String)] {
            let text = (try? String(contentsOfFile: calls, encoding: .utf8)) ?? ""
            return try text.split(separator: "\n").map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let arguments = object["arguments"] as? [String] ?? []
                let action = arguments.first { ["archive", "-exportArchive", "build", "test"].contains($0) } ?? arguments.joined(separator: " ")
                return (object["job"] as? String ?? "", action)
            }
        }

        var refs: String { get throws { try origin.git("for-each-ref", "--format=%(refname) %(objectname)") } }
    }

    /// The security stand-in's calls in the job whose workspace is `workspace` (its HOME is beside it).
    static func securityCalls(workspace: String) throws -> [[String]] {
        try SecurityStandIn.calls(home: (workspace as NSString).deletingLastPathComponent + "/home")
    }

    /// The Info.plist inside the .ipa at `path`, whose entries must be the stand-in's three.
    static func ipaInfo(_ path: String) throws -> [String: Any] {
        #expect(try IPAFixture.entries(of: path).sorted() == [
            "Payload/App.app/App", "Payload/App.app/Info.plist", "Payload/App.app/embedded.mobileprovision",
        ])
        return try IPAFixture.infoPlist(of: path)
    }

    @Test("per runner: version, signing, archive and export in one macOS job; the .ipa on Linux carries the bumped version")
    func oneMacJobSignsArchivesAndExports() async throws {
        let setup = try await Setup(lane: Self.lane())
        let workflowText = try setup.export()
        let refsBefore = try setup.refs
        let simulator = try setup.simulator(workflow: workflowText)
        let result = try await simulator.run(secrets: ["SIGNING_PASSPHRASE": Self.passphrase])
        #expect(result.statuses == ["version": .succeeded, "publish": .succeeded],
                "\(result.statuses)\n\(result["version"]?.log ?? "")\n\(result["publish"]?.log ?? "")")

        // The workflow: one macOS job runs the four Mac steps, the upload runs on Linux after it.
        let jobs = simulator.workflow.jobs
        #expect(jobs.map(\.id) == ["version", "publish"])
        let mac = try #require(jobs.first { $0.id == "version" })
        #expect(mac.runsOn == "macos-latest" && jobs.last?.runsOn == "ubuntu-latest" && jobs.last?.needs == ["version"])
        let script = mac.steps.compactMap(\.run).joined(separator: "\n")
        #expect(script.contains("--only version --only signing --only archive --only export"), "\(script)")

        // The stand-ins' records: the identity was imported, archived and exported with in that job.
        let calls = try setup.xcodebuildCalls()
        #expect(calls.map(\.job) == ["version", "version"] && calls.map(\.action) == ["archive", "-exportArchive"], "\(calls)")
        let macWorkspace = try #require(result["version"]?.workspace)
        let security = try Self.securityCalls(workspace: macWorkspace).map { $0.first ?? "" }
        #expect(security.contains("create-keychain") && security.contains("import"), "\(security)")

        // The .ipa that reached the Linux job carries the bumped version and build number.
        let linux = try #require(result["publish"]?.workspace)
        let info = try Self.ipaInfo(linux + "/published/App.ipa")
        #expect(info["CFBundleShortVersionString"] as? String == "2.3.0")
        #expect(info["CFBundleVersion"] as? String == "77")
        #expect(info["CFBundleIdentifier"] as? String == "com.example.app")
        // And the Linux runner never ran the Mac's tools.
        #expect(try Self.securityCalls(workspace: linux).isEmpty)

        // Nothing was committed, tagged or pushed: the lane asked for none of it.
        #expect(try setup.refs == refsBefore)
        for workspace in [macWorkspace, linux] {
            #expect(try GitFixture.run(["rev-parse", "HEAD"], in: workspace) == (try setup.origin.git("rev-parse", "HEAD")))
            #expect(try GitFixture.run(["tag", "--list"], in: workspace) == "")
        }
    }

    /// The lane with `ci-jobs: per-step`; the archive travels to the export's job.
    static var perStepLane: String {
        lane(jobs: "ci-jobs: per-step\n").replacingOccurrences(of: "    id: archive\n", with: "    id: archive\n    artifacts: [build/App.xcarchive]\n")
    }

    @Test("per step: export refuses signing split from the archive; split anyway, the version arrives and the archive says why it fails")
    func perStepSplitsSigningFromTheArchive() async throws {
        let setup = try await Setup(lane: Self.perStepLane)
        let before = try Snapshot.of(setup.origin.path)
        let refused = try CommandResult.run(Binaries.slipway, ["ci", "export", "ios", "--to", "github-actions", "--slipway-on-path"], in: setup.origin.path)
        #expect(refused.status == 2, "\(refused.standardOutput)\n\(refused.standardError)")
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.standardError.contains("lanes/ios.yml:19:5: step 'archive' (xcode.archive) signs with the certificate and "
            + "profiles that step 'signing' (signing.sync) installs in job 'signing', but 'archive' runs in job 'archive' on another "
            + "machine, where they are not installed; keep both steps in one job (no 'ci-jobs: per-step', and no 'runs-on:' that "
            + "puts them on different runners), or give 'signing' 'install: none' if nothing signs with its install"),
                "\(refused.standardError)")
        #expect(try Snapshot.of(setup.origin.path) == before)

        // Told that nothing needs the install, the export splits them: the bumped version reaches the
        // archive's Mac through the worktree hand-over, and the archive fails there, saying why.
        let lane = Self.perStepLane.replacingOccurrences(
            of: "      passphrase: \"${{ secrets.SIGNING_PASSPHRASE }}\"\n", with: "      passphrase: \"${{ secrets.SIGNING_PASSPHRASE }}\"\n      install: none\n")
        try setup.origin.commit("ci: no install", files: ["lanes/ios.yml": lane])
        let simulator = try setup.simulator(workflow: try setup.export())
        let result = try await simulator.run(secrets: ["SIGNING_PASSPHRASE": Self.passphrase])
        #expect(result.statuses == ["version": .succeeded, "signing": .succeeded, "archive": .failed, "export": .skipped, "publish": .skipped],
                "\(result.statuses)")
        #expect(simulator.workflow.jobs.map(\.runsOn) == ["ubuntu-latest", "ubuntu-latest", "macos-latest", "macos-latest", "ubuntu-latest"])
        let archive = try #require(result["archive"])
        #expect(archive.log.contains("No signing certificate \"iOS Distribution\" found"), "\(archive.log)")
        let workspace = try #require(archive.workspace)
        let version = try String(contentsOfFile: workspace + "/Config/Version.xcconfig", encoding: .utf8)
        #expect(version.contains("MARKETING_VERSION = 2.3.0") && version.contains("CURRENT_PROJECT_VERSION = 77"), "\(version)")
        let calls = try setup.xcodebuildCalls()
        #expect(calls.map(\.job) == ["archive"] && calls.map(\.action) == ["archive"], "\(calls)")
        #expect(try Self.securityCalls(workspace: workspace).isEmpty)
    }
}
