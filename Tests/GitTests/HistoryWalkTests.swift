import Foundation
@testable import Git
import Testing
import TestSupport
import TestThreads

/// `commits(from:until:)` walks the history itself (`GitHistoryWalk`); libgit2's `git_revwalk`
/// with the same sorting is the reference, on random histories with merges, branches and
/// commit times out of order.
@Suite("GitHistoryWalk: the same commits, in the same order, as libgit2's walk", .dedicatedThreads)
struct HistoryWalkTests {
    /// A deterministic generator, so a failure can be reproduced from its seed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// A history of `count` commits: mostly a parent among the last few commits, some merges
    /// of two or three, some new roots; times distinct, but one in `skewEvery` older than its
    /// parents (clock skew). Returns the ids in the order made.
    static func makeHistory(_ fixture: GitFixture, count: Int, seed: UInt64, skewEvery: Int) throws -> [GitOID] {
        var generator = Generator(state: seed)
        var stream = ""
        var times: Set<Int> = []
        for number in 1...count {
            var time = 1_600_000_000 + number * 100
            if number % skewEvery == 0 { time -= 100 * (2 + generator.next(30)) }
            while times.contains(time) { time += 1 }
            times.insert(time)
            stream += "commit refs/heads/b\(generator.next(4))\nmark :\(number)\n"
            stream += "committer C <c@example.com> \(time) +0000\ndata 12\ncommit \(String(format: "%05d", number))\n"
            if number > 1, generator.next(40) != 0 {
                let parentCount = generator.next(8) == 0 ? 2 + generator.next(2) : 1
                var parents: [Int] = []
                for _ in 0..<parentCount {
                    let parent = max(1, number - 1 - generator.next(min(number - 1, 12)))
                    if !parents.contains(parent) { parents.append(parent) }
                }
                stream += "from :\(parents[0])\n"
                for parent in parents.dropFirst() { stream += "merge :\(parent)\n" }
            } else {
                stream += "reset refs/heads/unused\n"
            }
            stream += "\n"
        }
        for number in 1...count { stream += "reset refs/tags/m\(number)\nfrom :\(number)\n\n" }
        _ = try fixture.git(["fast-import", "--quiet", "--force"], input: Data(stream.utf8))
        return try (1...count).map { number in
            try #require(GitOID(hex: try fixture.git("rev-parse", "m\(number)").trimmingCharacters(in: .whitespacesAndNewlines)))
        }
    }

    @Test("random histories: equal to git_revwalk for many start and stop commits", arguments: [(1, 1_000_000), (2, 7), (3, 3)])
    func randomHistories(seed: UInt64, skewEvery: Int) throws {
        let fixture = try GitFixture()
        let ids = try Self.makeHistory(fixture, count: 300, seed: seed, skewEvery: skewEvery)
        let repository = try fixture.open()
        var generator = Generator(state: seed &+ 99)
        var compared = 0
        for _ in 0..<60 {
            let start = ids[ids.count - 1 - generator.next(60)]
            let stop = generator.next(5) == 0 ? nil : ids[generator.next(ids.count)]
            let expected = try repository.libgit2WalkIDs(from: start, until: stop)
            let walked = try repository.commits(from: start.hex, until: stop?.hex)
            #expect(walked.map(\.oid) == expected, "seed \(seed): \(start.short) hiding \(stop?.short ?? "nothing")")
            compared += expected.count
        }
        #expect(compared > 1_000)
    }

    @Test("equal commit times: the same set, each commit before its parents")
    func equalTimes() throws {
        let fixture = try GitFixture()
        try fixture.commit("base")
        try fixture.git("checkout", "-q", "-b", "side")
        try fixture.commit("side one")
        try fixture.commit("side two")
        try fixture.git("checkout", "-q", "main")
        try fixture.commit("main one")
        try fixture.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
        let repository = try fixture.open()
        let head = try repository.commit("HEAD").oid
        let walked = try repository.commits()
        #expect(Set(walked.map(\.oid)) == Set(try repository.libgit2WalkIDs(from: head, until: nil)))
        let position = Dictionary(uniqueKeysWithValues: walked.enumerated().map { ($1.oid, $0) })
        for commit in walked {
            for parent in commit.parents { #expect(position[commit.oid]! < position[parent]!, "\(commit.summary)") }
        }
    }
}

/// `GitPackReader` reads whole commits from pack files itself and leaves everything else to
/// libgit2: each way, the commits must be exactly libgit2's.
@Suite("GitPackReader: commits read from pack files equal libgit2's", .dedicatedThreads)
struct PackReaderTests {
    /// Checks that a walk over all of HEAD's history gives libgit2's commits, and returns how
    /// many it read from the packs itself.
    static func walkMatchesLibgit2(_ fixture: GitFixture, _ label: String) throws -> (read: Int, total: Int) {
        let repository = try fixture.open()
        let walked = try repository.walk(from: "HEAD", until: nil)
        let reference = try repository.parserComparison(walked.commits.map(\.oid))
        #expect(walked.commits.count == reference.count)
        for (commit, expected) in zip(walked.commits, reference) {
            #expect(commit == expected.libgit2, "\(label): \(commit.oid.hex)")
        }
        return (walked.readFromPacks, walked.commits.count)
    }

    /// `count` commits on `main`, each after the one before, every tenth also merging the
    /// fifth before it; HEAD on the last.
    static func makeHistory(_ fixture: GitFixture, count: Int) throws {
        var stream = ""
        for number in 1...count {
            stream += "commit refs/heads/main\nmark :\(number)\n"
            stream += "committer C <c@example.com> \(1_600_000_000 + number * 60) +0000\n"
            let message = "feat(walk): commit \(number)\n\nBody of \(number).\n"
            stream += "data \(message.utf8.count)\n\(message)"
            if number > 1 { stream += "from :\(number - 1)\n" }
            if number > 5, number % 10 == 0 { stream += "merge :\(number - 5)\n" }
            stream += "M 644 inline file\(number % 7).txt\ndata <<END\nrevision \(number)\nEND\n\n"
        }
        _ = try fixture.git(["fast-import", "--quiet", "--force"], input: Data(stream.utf8))
        try fixture.git("checkout", "-q", "-f", "main")
    }

    static func packFiles(_ fixture: GitFixture) throws -> [String] {
        let folder = fixture.path + "/.git/objects/pack"
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pack") }.map { folder + "/" + $0 }
    }

    @Test("a packed history is read from the pack, with small and with 64-bit offsets")
    func packedHistory() throws {
        let fixture = try GitFixture()
        try Self.makeHistory(fixture, count: 200)
        try fixture.git("repack", "-a", "-d", "-q", "--depth=0")
        let plain = try Self.walkMatchesLibgit2(fixture, "plain pack")
        #expect(plain.read == plain.total && plain.total > 100)

        // Rewrite the index with the offsets past 2,000 bytes in the 8-byte table, as a pack over
        // 2 GiB has them (git refuses an index with every offset there).
        let pack = try #require(try Self.packFiles(fixture).first)
        let index = String(pack.dropLast(5)) + ".idx"
        try FileManager.default.removeItem(atPath: index)
        try fixture.git("index-pack", "--index-version=2,2000", "-o", index, pack)
        let large = try Self.walkMatchesLibgit2(fixture, "64-bit offsets")
        #expect(large.read == large.total)
    }

    @Test("deltas, loose objects, several packs and an index of version 1 go through libgit2")
    func everythingElseFallsBack() throws {
        let fixture = try GitFixture()
        try Self.makeHistory(fixture, count: 150)
        // Aggressive delta compression stores some commits as deltas of others.
        try fixture.git("repack", "-a", "-d", "-f", "-q", "--window=250", "--depth=50")
        let deltas = try Self.walkMatchesLibgit2(fixture, "deltas")
        #expect(deltas.total > 100)
        // New commits stay loose; a second pack holds a few more.
        for number in 1...5 { try fixture.commit("loose \(number)") }
        try fixture.git("repack", "-q")
        for number in 1...3 { try fixture.commit("looser \(number)") }
        #expect(try Self.packFiles(fixture).count >= 2)
        let mixed = try Self.walkMatchesLibgit2(fixture, "loose and two packs")
        #expect(mixed.read < mixed.total && mixed.read > 100)

        // An index of version 1 is not read here at all.
        try fixture.git("repack", "-a", "-d", "-q", "--depth=0")
        let pack = try #require(try Self.packFiles(fixture).first)
        let index = String(pack.dropLast(5)) + ".idx"
        try FileManager.default.removeItem(atPath: index)
        try fixture.git("index-pack", "--index-version=1", "-o", index, pack)
        let old = try Self.walkMatchesLibgit2(fixture, "index version 1")
        #expect(old.read == 0 && old.total > 100)
    }
}
