@testable import PBXProj
@testable import Sync
import Testing
import TestThreads

/// The scan's early answer (`MoveIndex.mayName`: no component of the word or its base is the
/// last component of a move or of a changing folder) never hides a hit that the full check
/// (join, `moving`, `changingContents`) finds: words and bases drawn at random, with a fixed
/// seed, from the moves' own components, near misses, `.`, `..` and non-ASCII names.
@Suite(.dedicatedThreads) struct MoveIndexNameFilterTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    static let moves: [SyncMove] = [
        SyncMove(source: "App/Views/Main.swift", destination: "Sources/Views/Main.swift", reason: .reference),
        SyncMove(source: "App/Info.plist", destination: "App/Support/Info.plist", reason: .reference),
        SyncMove(source: "Old/Assets", destination: "Resources/Assets", reason: .reference),
        SyncMove(source: "Scripts/build.sh", destination: "Tools/build.sh", reason: .reference),
        SyncMove(source: "Stale/Gone.swift", destination: "", reason: .pruned),
        SyncMove(source: "Deep/a/b/c/Leaf.m", destination: "Leaf.m", reason: .reference),
    ]

    static func fullCheck(_ index: MoveIndex, _ path: String, bases: [String]) -> Bool {
        bases.contains { base in
            let joined = ProjectPath.join(base, path)
            return !ProjectPath.isOutside(joined) && (index.moving(joined) != nil || (!joined.isEmpty && index.changingContents(of: joined) != nil))
        }
    }

    func agree(moves: [SyncMove], prefix: String, words: [String], seed: UInt64) {
        let index = MoveIndex(moves: moves, projectPrefix: prefix)
        var random = Generator(state: seed)
        var hits = 0
        for _ in 0..<4_000 {
            let path = (0..<Int.random(in: 1...4, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: "/")
            let bases = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                (0..<Int.random(in: 0...2, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: "/")
            }
            let full = Self.fullCheck(index, path, bases: bases)
            if full { hits += 1 }
            #expect(!full || index.mayName(path, bases: bases), "'\(path)' below \(bases) names a move, and the filter said no")
        }
        #expect(hits > 20, "the draw should find hits (found \(hits))")
    }

    @Test func theFilterNeverHidesAHit() {
        let words = ["App", "Views", "Main.swift", "Info.plist", "Old", "Assets", "Scripts", "build.sh", "Stale", "Gone.swift",
                     "Sources", "Resources", "Tools", "Support", "Deep", "a", "b", "c", "Leaf.m", ".", "..", "main.swift", "App2", "Asset"]
        agree(moves: Self.moves, prefix: "", words: words, seed: 1)
        agree(moves: Self.moves, prefix: "ios", words: words + ["ios"], seed: 2)
    }

    @Test func nonASCIINamesAlwaysGetTheFullCheck() {
        // A Kelvin sign (U+212A) is canonically equal to `K`: Swift's dictionary finds the move.
        let moves = [SyncMove(source: "Old/\u{212A}elvin.swift", destination: "New/\u{212A}elvin.swift", reason: .reference)]
        let index = MoveIndex(moves: moves, projectPrefix: "")
        #expect(Self.fullCheck(index, "Old/Kelvin.swift", bases: [""]))
        #expect(index.mayName("Old/Kelvin.swift", bases: [""]))
        agree(moves: moves + Self.moves, prefix: "", words: ["Old", "New", "Kelvin.swift", "\u{212A}elvin.swift", "Caf\u{E9}", "Cafe\u{301}", "..", "App", "Views", "Main.swift"], seed: 3)
    }

    @Test func wordsThatNameNothingAreAnsweredEarly() {
        let index = MoveIndex(moves: Self.moves, projectPrefix: "")
        #expect(!index.mayName("Other/Thing.swift", bases: ["", "Lib"]))
        #expect(!index.mayName("README.md", bases: ["Docs"]))
        #expect(index.mayName("../Main.swift", bases: ["X"]))
        #expect(index.mayName("Thing.swift", bases: ["App"]))
    }
}
