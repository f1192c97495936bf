#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Sync
import Testing
import TestThreads

/// The path-reference scan's glob check through the move index's shortcut (first components,
/// patterns without `**` at their own length) gives the same answer as trying every move with
/// the plain matcher, on patterns and moves made to hit every branch.
@Suite(.dedicatedThreads) struct PathGlobIndexTests {
    /// The plain answer: the first move whose source and destination differ in matching.
    static func bruteForce(_ pattern: String, _ moves: [SyncMove]) -> String? {
        for move in moves {
            let source = PathGlob.matchesOrInsideSlow(pattern, move.source)
            let destination = move.reason == .pruned ? false : PathGlob.matchesOrInsideSlow(pattern, move.destination)
            if source != destination { return move.source }
        }
        return nil
    }

    static let moves: [SyncMove] = [
        SyncMove(source: "App/Views/Main.swift", destination: "Sources/Views/Main.swift", reason: .reference),
        SyncMove(source: "App/Info.plist", destination: "App/Support/Info.plist", reason: .reference),
        SyncMove(source: "Old/Assets", destination: "Resources/Assets", reason: .reference),
        SyncMove(source: "Scripts/build.sh", destination: "Tools/build.sh", reason: .reference),
        SyncMove(source: "Tests/OldTests.swift", destination: "Tests/Unit/OldTests.swift", reason: .reference),
        SyncMove(source: "Stale/Gone.swift", destination: "", reason: .pruned),
    ]

    static let patterns = [
        "App", "App/*", "App/*.swift", "App/**", "App/**/*.swift", "**/*.swift", "**/Info.plist", "*/Views",
        "Sources/**", "Sources", "Resources/*", "[AO]*/**", "?pp/Info.plist", "*", "**", "Tests/*.swift",
        "Tests/**/*.swift", "Tools/build.sh", "Scripts", "Stale/**", "Stale/*.swift", "*.swift", "Nothing/**",
        "Kj*Ih", "?^}", "App/Views/Main.swift", "Sources/Views", "**/Unit/**", "T*/U*",
    ]

    @Test(arguments: patterns) func theShortcutAgreesWithTryingEveryMove(pattern: String) {
        let index = MoveIndex(moves: Self.moves, projectPrefix: "")
        let parts = PathGlob.components(pattern)
        #expect(index.changingGlobMatch(parts)?.source == Self.bruteForce(pattern, Self.moves), "\(pattern)")
        #expect(index.changingMatch({ PathGlob.matchesOrInside(parts, $0) })?.source == Self.bruteForce(pattern, Self.moves), "\(pattern)")
    }

    @Test func aProjectPrefixIsPartOfEveryPath() {
        let index = MoveIndex(moves: Self.moves, projectPrefix: "ios")
        #expect(index.changingGlobMatch(PathGlob.components("ios/App/**"))?.source == "ios/App/Views/Main.swift")
        #expect(index.changingGlobMatch(PathGlob.components("App/**")) == nil)
        #expect(index.changingGlobMatch(PathGlob.components("*/Scripts/*.sh"))?.source == "ios/Scripts/build.sh")
    }
}

extension PathGlob {
    /// The matcher as it was before the shortcut: every length, fnmatch on every component.
    static func matchesOrInsideSlow(_ pattern: String, _ path: String) -> Bool {
        let patternParts = pattern.split(separator: "/").map(String.init)[...]
        let parts = path.split(separator: "/").map(String.init)
        func slow(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
            guard let first = pattern.first else { return path.isEmpty }
            if first == "**" {
                var remaining = path
                while true {
                    if slow(pattern.dropFirst(), remaining) { return true }
                    guard !remaining.isEmpty else { return false }
                    remaining = remaining.dropFirst()
                }
            }
            guard let name = path.first, fnmatch(first, name, 0) == 0 else { return false }
            return slow(pattern.dropFirst(), path.dropFirst())
        }
        for length in stride(from: parts.count, through: 1, by: -1) where slow(patternParts, parts[0..<length]) { return true }
        return false
    }
}
