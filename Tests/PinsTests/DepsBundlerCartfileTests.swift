import Basics
import Foundation
@testable import Pins
import Testing
import TestSupport
import TestThreads

/// A requirement on Bundler itself, and a Cartfile.resolved with nothing to check it against.
@Suite(.dedicatedThreads) struct DepsBundlerCartfileTests {
    func audit(_ project: PinsProject) async throws -> DepsReport {
        try await DependencyAuditor(context: project.context(online: false)).audit()
    }

    /// The fixture's Gemfile.lock with `bundler (requirement)` in DEPENDENCIES and `bundled` in
    /// BUNDLED WITH (nil: no BUNDLED WITH section, as Bundler 1.9 and older wrote).
    func gemfileLock(requirement: String, bundled: String?) -> String {
        var text = DepsFixtures.gemfileLock().replacingOccurrences(of: "  xcpretty\n", with: "  bundler (\(requirement))\n  xcpretty\n")
        text = text.replacingOccurrences(of: "BUNDLED WITH\n   2.5.6\n", with: bundled.map { "BUNDLED WITH\n   \($0)\n" } ?? "")
        return text
    }

    @Test func aRequirementOnBundlerIsCheckedAgainstBundledWith() async throws {
        let project = try PinsProject()
        try project.write("Gemfile.lock", gemfileLock(requirement: ">= 2", bundled: "2.5.6"))
        let report = try await audit(project)
        #expect(report.failures.map(\.summary) == [])
        #expect(report.findings.contains { $0.subject == "bundler" && $0.ok && $0.found == "BUNDLED WITH 2.5.6" })
        try project.write("Gemfile.lock", gemfileLock(requirement: "~> 2.6", bundled: "2.5.6"))
        #expect(try await audit(project).failures.map(\.summary) == [
            "Gemfile.lock: dependency 'bundler': expected a version ~> 2.6, found BUNDLED WITH 2.5.6. The Gemfile asks for "
                + "bundler ~> 2.6; install a matching Bundler ('gem install bundler -v \"~> 2.6\"') and run 'bundle update "
                + "--bundler' to record it in BUNDLED WITH.",
        ])
        try project.write("Gemfile.lock", gemfileLock(requirement: ">= 2", bundled: nil))
        #expect(try await audit(project).failures.map(\.summary) == [
            "Gemfile.lock: dependency 'bundler': expected a version >= 2 in BUNDLED WITH, found no BUNDLED WITH. Run 'bundle "
                + "update --bundler' to record the Bundler version in Gemfile.lock.",
        ])
        let text = gemfileLock(requirement: ">= 2", bundled: "two")
        try project.write("Gemfile.lock", text)
        let before = try Snapshot.of(project.path)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == "   two" }.map { $0 + 1 }
        #expect(await thrownText { _ = try await audit(project) }
            == "'Gemfile.lock' line \(line ?? 0) cannot be read: 'two' under BUNDLED WITH is not a version. Run 'bundle lock' to write it again.")
        #expect(try Snapshot.of(project.path) == before)
    }

    /// A spec for bundler (a lock that vendors it from a GIT/PATH source) is still checked as a spec.
    @Test func aBundlerSpecIsCheckedLikeAnyGem() async throws {
        let project = try PinsProject()
        try project.write("Gemfile.lock", gemfileLock(requirement: ">= 2", bundled: "2.5.6")
            .replacingOccurrences(of: "    base64 (0.2.0)\n", with: "    base64 (0.2.0)\n    bundler (1.17.3)\n"))
        #expect(try await audit(project).failures.map(\.summary).first?.hasPrefix(
            "Gemfile.lock: dependency 'bundler': expected a version >= 2, found 1.17.3.") == true)
    }

    static let loneNote = "Cartfile.resolved: not checked: there is no Cartfile or Cartfile.private to check it against. Add "
        + "the Cartfile it was resolved from, or delete Cartfile.resolved if the project no longer uses Carthage."

    @Test func aLoneCartfileResolvedIsNotReportedAsPassed() async throws {
        let project = try PinsProject()
        try project.write("Cartfile.resolved", DepsFixtures.cartfileResolved())
        let report = try await audit(project)
        #expect(report.findings == [])
        #expect(report.unchecked == ["Cartfile.resolved"])
        #expect(report.notes == [Self.loneNote])
        let before = try Snapshot.of(project.path)
        let result = try project.slipway(["deps", "verify"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "- Cartfile.resolved: not checked (see the note below)\nnote: \(Self.loneNote)\n")
        let json = try project.slipway(["deps", "verify", "--json"])
        #expect(json.standardOutput.contains("\"unchecked\" : [\n    \"Cartfile.resolved\"\n  ]"), "\(json.standardOutput)")
        #expect(try Snapshot.of(project.path) == before)
    }
}
