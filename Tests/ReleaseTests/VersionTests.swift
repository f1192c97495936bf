import Basics
import Release
import Testing
import TestThreads

@Suite(.dedicatedThreads) struct ConventionalCommitTests {
    @Test func parsesTypeScopeBangAndFooters() throws {
        let feat = try #require(ConventionalCommit(message: "feat(lanes): resume after failure\n\nbody"))
        #expect(feat.type == "feat")
        #expect(feat.scope == "lanes")
        #expect(feat.description == "resume after failure")
        #expect(!feat.isBreaking)
        #expect(feat.impact == .minor)
        let bang = try #require(ConventionalCommit(message: "refactor!: drop Swift 5 support"))
        #expect(bang.isBreaking && bang.impact == .major)
        let footer = try #require(ConventionalCommit(message: "fix: parse\n\nBREAKING CHANGE: options renamed"))
        #expect(footer.isBreaking)
        #expect(footer.breakingNote == "options renamed")
        #expect(ConventionalCommit(message: "Merge branch 'main'") == nil)
        #expect(ConventionalCommit(message: "feat(): empty scope") == nil)
        #expect(ConventionalCommit(message: "chore: deps")?.impact == VersionImpact.none)
        #expect(ConventionalCommit(message: "perf: faster")?.impact == .patch)
    }

    @Test func headersFootersAndWhiteSpaceAtTheEdges() throws {
        let spaced = try #require(ConventionalCommit(message: "Feat(ünï-code):   trims both ends \t\n"))
        #expect(spaced.type == "feat" && spaced.scope == "ünï-code" && spaced.description == "trims both ends")
        let crlf = try #require(ConventionalCommit(message: "fix: windows\r\n\r\nBREAKING-CHANGE:  paths differ \r\n"))
        #expect(crlf.description == "windows")
        #expect(crlf.isBreaking && crlf.breakingNote == "paths differ")
        let last = try #require(ConventionalCommit(message: "feat: x\n\nBREAKING CHANGE: first\nBREAKING CHANGE: second\n"))
        #expect(last.breakingNote == "second", "the last footer wins")
        let mentioned = try #require(ConventionalCommit(message: "docs: explain\n\nThe word BREAKING in a body is not a footer.\n"))
        #expect(!mentioned.isBreaking && mentioned.breakingNote == nil)
        #expect(ConventionalCommit(message: "feat:no space") == nil)
        #expect(ConventionalCommit(message: "feat:   \nbody: text") == nil, "the summary is empty; the body's colon does not count")
        #expect(ConventionalCommit(message: "") == nil)
        #expect(ConventionalCommit(message: "fix(a b)!: x")?.scope == "a b")
        #expect(ConventionalCommit(message: "fix 2: x") == nil)
    }
}

@Suite(.dedicatedThreads) struct VersionCalculatorTests {
    let calculator = VersionCalculator()
    func v(_ text: String) -> SemanticVersion { SemanticVersion(text)! }

    @Test func autoFollowsTheLargestImpact() throws {
        #expect(try calculator.next(after: v("1.2.3"), strategy: .auto, messages: ["fix: a", "docs: b"]) == v("1.2.4"))
        #expect(try calculator.next(after: v("1.2.3"), strategy: .auto, messages: ["fix: a", "feat: b"]) == v("1.3.0"))
        #expect(try calculator.next(after: v("1.2.3"), strategy: .auto, messages: ["feat!: b", "fix: a"]) == v("2.0.0"))
    }

    @Test func zeroMajorRules() throws {
        #expect(try calculator.next(after: v("0.4.2"), strategy: .auto, messages: ["feat!: b"]) == v("0.5.0"))
        #expect(try calculator.next(after: v("0.4.2"), strategy: .auto, messages: ["feat: b"]) == v("0.5.0"))
        #expect(try calculator.next(after: v("0.4.2"), strategy: .auto, messages: ["fix: b"]) == v("0.4.3"))
    }

    @Test func prereleasesAndExplicitStrategies() throws {
        #expect(try calculator.next(after: v("1.3.0-rc.2"), strategy: .auto, messages: ["fix: x"]) == v("1.3.0"))
        #expect(try calculator.next(after: v("1.2.3"), strategy: .prerelease("rc"), messages: []) == v("1.2.4-rc.1"))
        #expect(try calculator.next(after: v("1.2.4-rc.1"), strategy: .prerelease("rc"), messages: []) == v("1.2.4-rc.2"))
        #expect(try calculator.next(after: v("1.2.3"), strategy: .major, messages: []) == v("2.0.0"))
        #expect(try calculator.next(after: nil, strategy: .exact(v("1.0.0")), messages: []) == v("1.0.0"))
        #expect(try VersionStrategy(parsing: "prerelease rc") == .prerelease("rc"))
        #expect(try VersionStrategy(parsing: "v2.0.0") == .exact(v("2.0.0")))
    }

    @Test func refusals() {
        #expect(throws: ReleaseError.noPreviousVersion) { try calculator.next(after: nil, strategy: .auto, messages: ["feat: a"]) }
        #expect(throws: ReleaseError.nothingToRelease(since: "1.2.3", commits: 2)) {
            try calculator.next(after: v("1.2.3"), strategy: .auto, messages: ["docs: a", "chore: b"])
        }
        #expect(throws: ReleaseError.versionNotAfter("1.0.0", "1.2.3")) { try calculator.next(after: v("1.2.3"), strategy: .exact(v("1.0.0")), messages: []) }
        #expect(throws: ReleaseError.invalidStrategy("bigger")) { try VersionStrategy(parsing: "bigger") }
        #expect(ReleaseError.invalidStrategy("bigger").errorDescription == "'bigger' is not a version strategy; use auto, major, minor, patch, 'prerelease ID' (e.g. 'prerelease rc') or a version such as 1.4.0")
    }
}
