import Testing
import PBXProj
import TestThreads

/// The lexical path arithmetic the planner relies on.
@Suite("Project paths", .dedicatedThreads)
struct ProjectPathTests {
    @Test("normalize collapses . and .. and keeps a leading ..", arguments: [
        ("a/b", "a/b"), ("a//b/", "a/b"), ("./a/./b", "a/b"), ("a/../b", "b"), ("../a", "../a"), ("../../a/..", "../.."),
        ("a/..", ""), ("", ""), ("/a/../../b", "/b"), ("/", "/"), ("a/b/../../..", ".."), ("..a/b", "..a/b"), ("a/.b", "a/.b"),
    ])
    func normalize(input: String, expected: String) {
        #expect(ProjectPath.normalize(input) == expected)
        #expect(ProjectPath.isNormal(input) == (input == expected))
    }

    @Test("relative paths between folders")
    func relative() {
        #expect(ProjectPath.relative(from: "App", to: "App/Models/User.swift") == "Models/User.swift")
        #expect(ProjectPath.relative(from: "App/Models", to: "App/Views") == "../Views")
        #expect(ProjectPath.relative(from: "", to: "a") == "a")
        #expect(ProjectPath.relative(from: "Sources", to: "../Outside.swift") == "../../Outside.swift")
        #expect(ProjectPath.relative(from: "a", to: "a") == "")
        #expect(ProjectPath.relative(from: "../x", to: "a") == nil)
        #expect(ProjectPath.relative(from: "Ab", to: "A/b") == "../A/b")
    }

    @Test("parents, last components and ancestors work on bytes, non-ASCII names included")
    func components() {
        #expect(ProjectPath.parent("🍷/café/x.swift") == "🍷/café")
        #expect(ProjectPath.lastComponent("🍷/café/x.swift") == "x.swift")
        #expect(ProjectPath.ancestors("a/b/c") == ["a/b", "a"])
        #expect(ProjectPath.join("a", "b/../c") == "a/c")
        #expect(ProjectPath.join("a", "../b") == "b")
        #expect(ProjectPath.isWithin("ab/c", "a") == false && ProjectPath.isWithin("a/c", "a"))
    }
}
