import Foundation
@testable import Git
import Testing
import TestSupport
import TestThreads

/// `GitCommitParser` reads commits from their raw text for history walks; libgit2's commit
/// parser is the reference. Every commit it reads must come out exactly as libgit2 has it, and
/// anything it declines goes to libgit2.
@Suite("GitCommitParser: raw commits read as libgit2 reads them", .dedicatedThreads)
struct CommitParserTests {
    static let tree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  // the empty tree
    static let author = "author Ada Lovelace <ada@example.com> 1600000000 +0100\n"
    static let committer = "committer Grace Hopper <grace@example.com> 1600000060 -0530\n"

    /// A raw commit object: the tree line, `headers` as given, then `body` verbatim.
    static func raw(_ headers: String, _ body: String) -> Data {
        var data = Data("tree \(tree)\n\(headers)".utf8)
        data.append(Data(body.utf8))
        return data
    }

    /// Writes `text` as a commit object as it is (even when git would not make it so).
    static func write(_ text: Data, in fixture: GitFixture) throws -> GitOID {
        let hex = try fixture.git(["hash-object", "-t", "commit", "-w", "--literally", "--stdin"], input: text)
        return try #require(GitOID(hex: hex.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    static let wellFormed: [(String, Data)] = [
        ("plain", raw(author + committer, "\nfeat: add sync\n")),
        ("body and trailing paragraphs", raw(author + committer, "\nfix(cli): one\ncontinued line\n\nBody.\n\nBREAKING CHANGE: gone\n")),
        ("merge of three", raw("parent \(String(repeating: "a", count: 40))\nparent \(String(repeating: "b", count: 40))\nparent \(String(repeating: "c", count: 40))\n" + author + committer, "\nMerge branches\n")),
        ("gpgsig continuation lines", raw(author + committer + "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n", "\nsigned: commit\n")),
        ("encoding header and Latin-1 bytes", { var data = raw(author + committer + "encoding ISO-8859-1\n", "\nchore: caf"); data.append(contentsOf: [0xE9, 0x0A]); return data }()),
        ("two author lines", raw(author + "author Someone Else <else@example.com> 1 +0000\n" + committer, "\ndocs: two authors\n")),
        ("leading blank lines", raw(author + committer, "\n\n\n\nsubject after blank lines\n")),
        ("no message at all", raw(author + committer, "")),
        ("empty message", raw(author + committer, "\n")),
        ("NUL in the message", raw(author + committer, "\nbefore\u{0}after\n")),
        ("no final newline", raw(author + committer, "\nfeat: unterminated")),
        ("spaces around name and e-mail", raw("author   Ada   Lovelace  <  ada@example.com > 1600000000 +0000\n" + committer, "\nx\n")),
        ("time zones at the limits", raw("author A <a@b> 0 +1459\ncommitter C <c@d> 99999999999 -1400\n", "\ny\n")),
        ("Unicode names", raw("author Zoë Ñandú 田中 <zoe@example.com> 1600000000 +0900\n" + committer, "\nfeat: ünïcödé ✓\n")),
        ("CRLF message", raw(author + committer, "\nsubject\r\n\r\nbody\r\n")),
        ("white space only line ends the summary", raw(author + committer, "\nfirst\nsecond  \n \t \nthird\n")),
        ("tabs and spaces inside the summary", raw(author + committer, "\n  lead\tand   inner\n   next line\n")),
    ]

    static let declined: [(String, Data)] = [
        ("signature without a time", raw("author Ada <ada@example.com>\n" + committer, "\nx\n")),
        ("odd time zone", raw("author Ada <ada@example.com> 1600000000 +9999\n" + committer, "\nx\n")),
        ("time zone without a sign", raw("author Ada <ada@example.com> 1600000000 0100\n" + committer, "\nx\n")),
    ]

    @Test("well-formed commits are read by the parser and equal libgit2's, summary included")
    func wellFormedCommitsMatchLibgit2() throws {
        let fixture = try GitFixture()
        let oids = try Self.wellFormed.map { try Self.write($0.1, in: fixture) }
        let results = try fixture.open().parserComparison(oids)
        for ((name, _), result) in zip(Self.wellFormed, results) {
            let parsed = try #require(result.parsed, "\(name): the parser declined a well-formed commit")
            #expect(parsed == result.libgit2, "\(name)")
            #expect(parsed.summary == result.libgit2Summary, "\(name)")
        }
        // Spot checks that the reference itself is what the cases mean.
        #expect(results[2].libgit2.parents.count == 3)
        #expect(results[9].libgit2.message == "before")
        #expect(results[12].libgit2.committer.timeZoneOffsetMinutes == -840)
        #expect(results[15].libgit2Summary == "first second")
    }

    @Test("commits the parser declines are left to libgit2, and a walk still returns them")
    func unusualCommitsFallBackToLibgit2() throws {
        let fixture = try GitFixture()
        for (name, text) in Self.declined {
            let oid = try Self.write(text, in: fixture)
            let repository = try fixture.open()
            let result = try #require(try? repository.parserComparison([oid]).first, "\(name): libgit2 cannot read it")
            #expect(result.parsed == nil, "\(name): the parser should leave this one to libgit2")
            // The walk's own path falls back to libgit2 and gives the same commit.
            #expect(try repository.commit(oid.hex) == result.libgit2, "\(name)")
        }
        // What libgit2 refuses, the parser declines too, and the walk reports libgit2's error.
        let parent = "parent \(String(repeating: "d", count: 40))\n"
        for broken in [Self.raw(Self.author, "\nno committer\n"), Self.raw(Self.author + parent + Self.committer, "\nparent after the author\n")] {
            let oid = try Self.write(broken, in: fixture)
            #expect(broken.withUnsafeBytes { GitCommitParser.parse($0, oid: oid) } == nil)
            #expect(throws: GitError.self) { try fixture.open().commit(oid.hex) }
        }
    }

    @Test("every commit of a real history reads the same both ways")
    func realHistoryMatchesLibgit2() throws {
        let root = Corpus.repositoryRoot
        guard FileManager.default.fileExists(atPath: root + "/.git") else { return }
        let repository = try GitRepository.discover(from: root)
        let commits = try repository.commits()
        #expect(commits.count > 10)
        let results = try repository.parserComparison(commits.map(\.oid))
        for (commit, result) in zip(commits, results) {
            #expect(result.parsed == result.libgit2, "\(commit.oid.hex)")
            #expect(commit == result.libgit2, "\(commit.oid.hex)")
            #expect(commit.summary == result.libgit2Summary, "\(commit.oid.hex)")
        }
    }

    @Test("ids keep their text, order and validation")
    func objectIDs() throws {
        let hex = "0123456789abcdef0123456789ABCDEF01234567"
        let oid = try #require(GitOID(hex: hex))
        #expect(oid.hex == hex.lowercased())
        #expect(oid.short == "0123456")
        #expect(GitOID(hex: String(hex.dropLast())) == nil)
        #expect(GitOID(hex: hex + "0") == nil)
        #expect(GitOID(hex: String(hex.dropLast()) + "g") == nil)
        let ids = ["ff00000000000000000000000000000000000000", "00000000000000000000000000000000000000ff",
                   "0000000000000000ff0000000000000000000000", "0000000000000000000000000000000000ff0000"]
        #expect(ids.compactMap(GitOID.init(hex:)).sorted().map(\.hex) == ids.sorted())
        #expect(GitOID(oid.raw) == oid)
    }
}
