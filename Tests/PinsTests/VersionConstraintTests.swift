import Basics
import Foundation
@testable import Pins
import Testing
import TestThreads

@Suite(.dedicatedThreads) struct VersionConstraintTests {
    func v(_ text: String) -> SemanticVersion {
        SemanticVersion(text)!
    }

    func accepts(_ constraint: String, _ version: String) throws -> Bool {
        try VersionConstraint.parse(constraint).isSatisfied(by: v(version))
    }

    @Test func precedenceFollowsSemVer() {
        let ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"].map(v)
        for (lower, higher) in zip(ordered, ordered.dropFirst()) {
            #expect(lower < higher, "\(lower) < \(higher)")
        }
        #expect(ordered.shuffled().sorted() == ordered)
        #expect(v("1.0.0+build.1") == v("1.0.0+build.2"))
    }

    @Test(arguments: [
        ("1.2.3", "1.2.3", true), ("1.2.3", "1.2.4", false), ("=1.2.3", "1.2.3", true),
        ("^1.2.3", "1.2.3", true), ("^1.2.3", "1.9.0", true), ("^1.2.3", "2.0.0", false), ("^1.2.3", "1.2.2", false),
        ("^1.2", "1.2.0", true), ("^1.2", "1.99.0", true), ("^1", "1.0.0", true), ("^1", "2.0.0", false),
        ("^0.2.3", "0.2.9", true), ("^0.2.3", "0.3.0", false), ("^0.0.3", "0.0.3", true), ("^0.0.3", "0.0.4", false),
        ("^0.2", "0.2.5", true), ("^0.2", "0.3.0", false), ("^0.0", "0.0.9", true), ("^0.0", "0.1.0", false),
        ("^0", "0.9.0", true), ("^0", "1.0.0", false),
        ("~1.2.3", "1.2.9", true), ("~1.2.3", "1.3.0", false), ("~1.2", "1.2.0", true), ("~1", "1.9.9", true),
        ("~1", "2.0.0", false),
        (">=1.2, <2", "1.2.0", true), (">=1.2, <2", "1.9.9", true), (">=1.2, <2", "2.0.0", false), (">=1.2, <2", "1.1.9", false),
        (">1.2", "1.2.9", false), (">1.2", "1.3.0", true), ("<=1.2", "1.2.9", true), ("<=1.2", "1.3.0", false),
        (">1.2.3", "1.2.4", true), ("*", "3.4.5", true), ("*", "3.4.5-rc.1", false),
    ])
    func constraintForms(constraint: String, version: String, expected: Bool) throws {
        #expect(try accepts(constraint, version) == expected, "\(constraint) vs \(version)")
    }

    @Test func preReleasesMatchOnlyWhenTheConstraintNamesOne() throws {
        #expect(try !accepts("^1.0", "1.1.0-beta.1"))
        #expect(try !accepts(">=1.0.0", "1.1.0-beta.1"))
        #expect(try accepts("^1.1.0-beta.1", "1.1.0-beta.1"))
        #expect(try accepts("^1.1.0-beta.1", "1.1.0-beta.2"))
        #expect(try accepts("^1.1.0-beta.1", "1.1.0"))
        #expect(try !accepts("^1.1.0-beta.1", "1.2.0-alpha.1"), "a pre-release of another version is not named")
        #expect(try !accepts("<2.0.0", "2.0.0-rc.1"))
        #expect(try accepts("1.1.0-beta.1", "1.1.0-beta.1"))
        let versions = ["0.9.0", "1.0.0", "1.1.0-beta.1", "1.1.0"].map(v)
        #expect(try VersionConstraint.parse("^1.0").best(of: versions) == v("1.1.0"))
        #expect(try VersionConstraint.parse(">=1.1.0-beta.1, <1.1.0").best(of: versions) == v("1.1.0-beta.1"))
        #expect(try VersionConstraint.parse("~1.0.0").best(of: versions) == v("1.0.0"))
        #expect(try VersionConstraint.parse("^2").best(of: versions) == nil)
    }

    func message(_ text: String) -> String? {
        do {
            _ = try VersionConstraint.parse(text)
            return nil
        } catch {
            return errorText(error)
        }
    }

    @Test func bundlersPessimisticOperatorIsRefusedWithWhatToWrite() {
        let reason = "uses Bundler's '~>' operator, which Slipway does not accept because its meaning depends on how many parts the version has."
        #expect(message("~> 1.2") == "'~> 1.2' \(reason) Write '^1.2' instead, which means the same.")
        #expect(message("~> 0.2") == "'~> 0.2' \(reason) Write '>=0.2, <1' instead, which means the same.")
        #expect(message("~> 1.2.3") == "'~> 1.2.3' \(reason) Write '~1.2.3' instead, which means the same.")
        #expect(message("~> 2") == "'~> 2' \(reason) Write '^2' instead, which means the same.")
    }

    @Test func badConstraintsSayHowToWriteThem() {
        let forms = "Write '1.2.3' (exactly), '^1.2' (compatible), '~1.2.3' (patch updates) or '>=1.2, <2' (a range)."
        #expect(message("") == "The version constraint is empty. \(forms)")
        #expect(message("1.2") == "'1.2' is not a complete version. Write '1.2.0' for exactly that version, or '^1.2' for compatible updates.")
        #expect(message("^1.x") == "'1.x' in the version constraint '^1.x' is not a version. \(forms)")
        #expect(message(">=1.2,") == "The version constraint '>=1.2,' has an empty part between commas. \(forms)")
        #expect(message("latest") == "'latest' in the version constraint 'latest' is not a version. \(forms)")
    }
}
