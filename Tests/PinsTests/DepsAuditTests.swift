import Basics
import Foundation
@testable import Pins
import Testing
import TestSupport
import TestThreads

@Suite(.dedicatedThreads) struct DepsAuditTests {
    /// A consistent project; `PATH` without a toolchain unless `toolchain` is set.
    func project(toolchain: Bool = false) throws -> PinsProject {
        let project = try PinsProject()
        if !toolchain { project.extraEnvironment["PATH"] = "/usr/bin:/bin" }
        try DepsFixtures.write(into: project)
        return project
    }

    func audit(_ project: PinsProject) async throws -> DepsReport {
        try await DependencyAuditor(context: project.context(online: false)).audit()
    }

    func failures(_ report: DepsReport) -> [String] { report.failures.map(\.summary) }

    @Test func allFourLockfilesAgreeWithTheirManifests() async throws {
        let project = try project()
        let report = try await audit(project)
        #expect(failures(report) == [])
        #expect(report.files == ["Package.resolved", "Podfile.lock", "Cartfile.resolved", "Cartfile", "Cartfile.private", "Gemfile.lock"])
        #expect(Set(report.findings.map(\.check)) == ["schema", "originHash", "checkout", "podfile-checksum", "dependency",
                                                     "manifest-lock", "cocoapods-version", "resolved", "platforms", "checksums"])
        #expect(report.notes == ["Package.resolved: the pins were not checked against Package.swift's requirements: no 'swift' on PATH."])
    }

    @Test func emptyProjectHasNothingToAudit() async throws {
        let project = try PinsProject()
        let report = try await audit(project)
        #expect(report.isOK)
        #expect(report.notes == ["No Package.resolved, Podfile.lock, Cartfile.resolved or Gemfile.lock in '\(project.path)'."])
    }

    @Test func packageResolvedVersionsOneTwoAndThreeAreRead() throws {
        for text in [DepsFixtures.resolvedV1, DepsFixtures.resolvedV2, DepsFixtures.resolvedV3(originHash: "x")] {
            let resolved = try PackageResolved.parse(Array(text.utf8), file: "Package.resolved")
            #expect(resolved.pins.contains(PackageResolved.Pin(identity: "yams", location: "https://github.com/jpsim/Yams.git",
                                                               revision: DepsFixtures.yamsRevision, version: "5.0.6", branch: nil)))
        }
    }

    @Test func packageResolvedDrift() async throws {
        let project = try project()
        try project.write("Package.swift", DepsFixtures.packageSwift + "// edited\n")
        try project.write(".build/workspace-state.json", DepsFixtures.workspaceState(parserRevision: String(repeating: "a", count: 40)))
        let edited = Digest256.hex(Array((DepsFixtures.packageSwift + "// edited\n").utf8))
        let original = Digest256.hex(Array(DepsFixtures.packageSwift.utf8))
        #expect(failures(try await audit(project)) == [
            "Package.resolved: originHash: expected \(edited), found \(original). Package.swift changed after Package.resolved "
                + "was written; run 'swift package resolve' and commit the result.",
            ".build/workspace-state.json: checkout 'swift-argument-parser': expected \(DepsFixtures.parserRevision), found "
                + "\(String(repeating: "a", count: 40)). The checkout in .build differs from the pin; run 'swift package resolve'.",
        ])
    }

    @Test func pinsAreCheckedAgainstTheManifestWithTheRealToolchain() async throws {
        let project = try project(toolchain: true)
        try project.write("Package.resolved", DepsFixtures.resolvedV3(
            originHash: Digest256.hex(Array(DepsFixtures.packageSwift.utf8)), parserVersion: "2.0.0"))
        let report = try await audit(project)
        #expect(failures(report) == [
            "Package.resolved: requirement 'swift-argument-parser': expected 1.2.0..<2.0.0, found 2.0.0 (c8ed701). "
                + "Package.swift asks for 1.2.0..<2.0.0; run 'swift package resolve' to pin a matching version.",
        ])
        #expect(report.findings.contains { $0.check == "requirement" && $0.subject == "yams" && $0.ok && $0.expected == "exactly 5.0.6" })
        #expect(report.notes.isEmpty)
        let cached = try FileManager.default.contentsOfDirectory(atPath: project.cacheFolder.path + "/manifests")
        #expect(cached.filter { $0.hasSuffix(".json") }.count == 1, "dump-package's answer is cached for the next run")
        #expect(failures(try await audit(project)).count == 1)
    }

    @Test func podfileLockDrift() async throws {
        let project = try project()
        try project.write("Podfile", DepsFixtures.podfile + "pod 'Kingfisher'\n")
        let stale = DepsFixtures.podfileLock(podfileChecksum: try DepsFixtures.sha1(of: project.path + "/Podfile"),
                                             alamofire: "6.0.0", cocoapods: "1.14.3")
        try project.write("Podfile.lock", stale)
        let newChecksum = try DepsFixtures.sha1(of: project.path + "/Podfile")
        try project.write("Podfile", DepsFixtures.podfile)
        let oldChecksum = try DepsFixtures.sha1(of: project.path + "/Podfile")
        #expect(failures(try await audit(project)) == [
            "Podfile.lock: podfile-checksum: expected \(oldChecksum), found \(newChecksum). The Podfile changed after "
                + "Podfile.lock was written; run 'pod install' and commit Podfile.lock.",
            "Podfile.lock: dependency 'Alamofire': expected a version ~> 5.8, found 6.0.0. PODS has 6.0.0, which the "
                + "Podfile's requirement excludes; run 'pod install'.",
            "Pods/Manifest.lock: manifest-lock: expected identical to Podfile.lock, found different. The installed Pods do "
                + "not match Podfile.lock; run 'pod install'.",
            "Podfile.lock: cocoapods-version: expected COCOAPODS: 1.15.2 (Gemfile.lock's cocoapods gem), found COCOAPODS: "
                + "1.14.3. Run 'bundle exec pod install' so that the bundled CocoaPods writes Podfile.lock.",
        ])
    }

    @Test func cartfileDrift() async throws {
        let project = try project()
        try project.write("Cartfile.resolved", DepsFixtures.cartfileResolved(nimble: "v13.3.0", early: "0.5.0")
            .replacingOccurrences(of: "github \"Quick/Quick\" \"v7.4.0\"\n", with: ""))
        #expect(failures(try await audit(project)) == [
            "Cartfile.resolved: resolved 'github \"Quick/Nimble\"': expected == 13.2.1, found v13.3.0. Cartfile.resolved "
                + "does not meet the Cartfile's requirement; run 'carthage update'.",
            "Cartfile.resolved: resolved 'github \"example/Early\"': expected ~> 0.4, found 0.5.0. Cartfile.resolved does "
                + "not meet the Cartfile's requirement; run 'carthage update'.",
            "Cartfile.resolved: resolved 'github \"Quick/Quick\"': expected ~> 7.0, found not in Cartfile.resolved. Run "
                + "'carthage update Quick'.",
        ])
        #expect(CartfileAudit.satisfies("7.9.0", "~> 7.1"))
        #expect(!CartfileAudit.satisfies("8.0.0", "~> 7.1"))
        #expect(CartfileAudit.satisfies("0.4.9", "~> 0.4.2"))
        #expect(!CartfileAudit.satisfies("7.2.0-beta.1", "~> 7.1"))
    }

    @Test func gemfileLockDrift() async throws {
        let project = try project()
        try project.write("Gemfile.lock", DepsFixtures.gemfileLock(platforms: ["x86_64-linux-musl", "java"], xcprettyChecksum: false)
            .replacingOccurrences(of: "  cocoapods (~> 1.15)", with: "  cocoapods (~> 1.16)"))
        let wanted = GemfileLockAudit.gemPlatforms(for: .current)
        #expect(failures(try await audit(project)) == [
            "Gemfile.lock: dependency 'cocoapods': expected a version ~> 1.16, found 1.15.2. The Gemfile asks for ~> 1.16; run 'bundle lock'.",
            "Gemfile.lock: platforms '\(ToolPlatform.current)': expected ruby or one of \(wanted.joined(separator: ", ")), found "
                + "x86_64-linux-musl, java. Run 'bundle lock --add-platform \(wanted[0])' and commit Gemfile.lock.",
            "Gemfile.lock: checksums 'xcpretty (0.3.0)': expected a sha256 in CHECKSUMS, found an entry without sha256. "
                + "Run 'bundle lock --add-checksums' (Bundler 2.6+) or 'bundle install' to record it.",
        ])
        #expect(GemfileLockAudit.matches("arm64-darwin-23", ["arm64-darwin"]))
        #expect(GemfileLockAudit.matches("x86_64-linux-gnu", ["x86_64-linux"]))
        #expect(!GemfileLockAudit.matches("x86_64-linux-musl", ["x86_64-linux"]))
    }

    /// Bundler installs from a lock whose PLATFORMS include `ruby` on any machine (duckduckgo/iOS's
    /// lock lists only `ruby`); only a lock without `ruby` and without the local platform fails.
    @Test func gemfileLockWithOnlyTheRubyPlatformPasses() async throws {
        let project = try project()
        try project.write("Gemfile.lock", DepsFixtures.gemfileLock(platforms: ["ruby"]))
        let report = try await audit(project)
        #expect(failures(report) == [])
        #expect(report.findings.contains { $0.check == "platforms" && $0.ok && $0.found == "ruby" })
    }

    func auditError(_ project: PinsProject) async -> String? {
        await thrownText { _ = try await DependencyAuditor(context: project.context(online: false)).audit() }
    }

    @Test func unreadableLockfilesAreRefusedWithWhereAndHow() async throws {
        let project = try project()
        try project.write("Package.resolved", #"{"pins": [], "version": 4}"#)
        #expect(await auditError(project) == "'Package.resolved' has format version 4; Slipway reads versions 1, 2, 3. Update Slipway to audit it.")
        try project.write("Package.resolved", #"{"pins": [{"identity": "x", "location": "u", "state": {"revision": "abc"}}], "version": 2}"#)
        #expect(await auditError(project) == """
            'Package.resolved' cannot be read: pin 'x' has revision 'abc', which is not a 40-character commit id. Run 'swift package resolve' (or let Xcode resolve packages) to write it again.
            """)
        try project.write("Package.resolved", "{")
        #expect(await auditError(project) == """
            'Package.resolved' cannot be read: it is not a JSON object. Run 'swift package resolve' (or let Xcode resolve packages) to write it again.
            """)
        try FileManager.default.removeItem(atPath: project.path + "/Package.resolved")
        try project.write("Gemfile.lock", "GEM\n  remote: https://rubygems.org/\n  specs:\n    rake 13.0\n")
        #expect(await auditError(project) == "'Gemfile.lock' line 4 cannot be read: 'rake 13.0' is not 'name (version)'. Run 'bundle lock' to write it again.")
        try project.write("Gemfile.lock", DepsFixtures.gemfileLock())
        try project.write("Cartfile.resolved", "github \"Quick/Nimble\" \"v13.2.1\"\ncocoapods \"x\" \"1.0\"\n")
        #expect(await auditError(project) == """
            'Cartfile.resolved' line 2 cannot be read: 'cocoapods "x" "1.0"' does not start with github, git or binary. Run 'carthage update' (or 'carthage bootstrap') to write it again.
            """)
        try FileManager.default.removeItem(atPath: project.path + "/Cartfile.resolved")
        try project.write("Podfile.lock", "PODS:\n  - Alamofire 5.9.1\n")
        #expect(await auditError(project) == "'Podfile.lock' line 2 cannot be read: 'Alamofire 5.9.1' is not 'Name (version)'. Run 'pod install' to write it again.")
    }

    /// A Podfile.lock is YAML from the repository too. Its reader never walks unknown sections, but
    /// Yams hashes every mapping key while composing, so an aliased bomb used as a key (`? *a8`)
    /// would be expanded there; it is refused before Yams composes anything.
    @Test func podfileLockAliasBombIsRefused() async throws {
        let project = try project()
        let anchors = ["X: &a0 [v, v, v, v, v, v, v, v, v]"] + (1...8).map { level in
            "X\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]"
        }
        try project.write("Podfile.lock", "PODS:\n  - Alamofire (5.9.1)\n" + anchors.joined(separator: "\n") + "\n? *a8\n: x\n")
        #expect(await auditError(project) == """
            'Podfile.lock' line 7 cannot be read: the alias '*a3' makes the aliases of this file expand to more than 10000 \
            values (an alias repeats its anchor's whole value, and nested aliases multiply); Podfile.lock files allow no \
            more. Write the values out, or use fewer, smaller aliases. Run 'pod install' to write it again.
            """)
    }
}
