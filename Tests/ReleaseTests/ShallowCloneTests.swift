import Foundation
import Git
import Release
import Testing
import TestSupport
import TestThreads

/// Shallow clones (CI's default checkout): the history stops at the clone's oldest commits.
@Suite(.dedicatedThreads) struct ShallowCloneTests {
    /// A repository of ten commits, `v1.0.0` on the fifth, and a shallow clone of its last
    /// `depth` commits.
    static func shallowClone(depth: Int) throws -> (source: GitFixture, clone: GitFixture) {
        let source = try GitFixture()
        for number in 1...10 {
            try source.commit(number % 2 == 0 ? "feat: feature \(number)" : "fix: fix \(number)", files: ["f\(number)": "\(number)"])
            if number == 5 { try source.git("tag", "-a", "v1.0.0", "-m", "1.0.0") }
        }
        let clone = try GitFixture(initialize: false)
        try FileManager.default.removeItem(atPath: clone.path)
        try GitFixture.run(["clone", "--quiet", "--depth", "\(depth)", "file://" + source.path, clone.path], in: source.path)
        return (source, clone)
    }

    @Test func aDeepEnoughCloneGivesTheVersionAndTheCommitsSinceTheTag() throws {
        let (_, clone) = try Self.shallowClone(depth: 7)
        #expect(try GitRepository.open(at: clone.path).isShallow)
        let planner = try ReleasePlanner(directory: clone.path)
        let state = try planner.state()
        #expect(state.previousTag == "v1.0.0")
        #expect(state.commits.map(\.summary) == ["feat: feature 10", "fix: fix 9", "feat: feature 8", "fix: fix 7", "feat: feature 6"])
        #expect(try planner.nextVersion(.auto, state: state).description == "1.1.0")
        // The walk stops at the clone's oldest commit instead of failing on its missing parent.
        #expect(try GitRepository.open(at: clone.path).commits().count == 7)
    }

    @Test func aCloneWithoutTheLastReleaseSaysToFetchTheHistory() throws {
        let (_, clone) = try Self.shallowClone(depth: 3)
        let planner = try ReleasePlanner(directory: clone.path)
        #expect(throws: GitError.shallowHistory(repository: clone.path, needed: "the search for the last release tag",
                                                detail: "no release tag among its 3 commits")) {
            try planner.state()
        }
        do {
            _ = try planner.state()
            Issue.record("expected the shallow-history error")
        } catch {
            #expect(error.localizedDescription == "'\(clone.path)' is a shallow clone, and the search for the last release tag reaches past the commits it has (no release tag among its 3 commits). Fetch the whole history with 'git fetch --unshallow --tags' (in GitHub Actions: actions/checkout with 'fetch-depth: 0'), then try again.")
        }
    }
}
