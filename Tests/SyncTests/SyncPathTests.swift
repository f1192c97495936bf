import Testing
@testable import Sync

/// The lexical path arithmetic the planner relies on.
@Suite("Sync paths")
struct SyncPathTests {
    @Test("normalize collapses . and .. and keeps a leading ..", arguments: [
        ("a/b", "a/b"), ("a//b/", "a/b"), ("./a/./b", "a/b"), ("a/../b", "b"), ("../a", "../a"), ("../../a/..", "../.."),
        ("a/..", ""), ("", ""), ("/a/../../b", "/b"), ("/", "/"), ("a/b/../../..", ".."), ("..a/b", "..a/b"), ("a/.b", "a/.b"),
    ])
    func normalize(input: String, expected: String) {
        #expect(SyncPath.normalize(input) == expected)
        #expect(SyncPath.isNormal(input) == (input == expected))
    }

    @Test("relative paths between folders")
    func relative() {
        #expect(SyncPath.relative(from: "App", to: "App/Models/User.swift") == "Models/User.swift")
        #expect(SyncPath.relative(from: "App/Models", to: "App/Views") == "../Views")
        #expect(SyncPath.relative(from: "", to: "a") == "a")
        #expect(SyncPath.relative(from: "Sources", to: "../Outside.swift") == "../../Outside.swift")
        #expect(SyncPath.relative(from: "a", to: "a") == "")
        #expect(SyncPath.relative(from: "../x", to: "a") == nil)
        #expect(SyncPath.relative(from: "Ab", to: "A/b") == "../A/b")
    }

    @Test("parents, last components and ancestors work on bytes, non-ASCII names included")
    func components() {
        #expect(SyncPath.parent("🍷/café/x.swift") == "🍷/café")
        #expect(SyncPath.lastComponent("🍷/café/x.swift") == "x.swift")
        #expect(SyncPath.ancestors("a/b/c") == ["a/b", "a"])
        #expect(SyncPath.join("a", "b/../c") == "a/c")
        #expect(SyncPath.join("a", "../b") == "b")
        #expect(SyncPath.isWithin("ab/c", "a") == false && SyncPath.isWithin("a/c", "a"))
    }
}
