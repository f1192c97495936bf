import Basics
import Foundation
import Release
import TestSupport

/// Issue #6's figure: the next version and the changelog over 10,000 conventional commits since
/// a release tag, against `git log --oneline` over the same range (target: ≤ 1.5×).
///
/// Measured, as medians: (a) `git log --oneline TAG..HEAD` as a process (output to
/// /dev/null), (b) the whole `slipway version --next` and `slipway changelog --since TAG`
/// processes, each run alternately with (a), and (c) the same work in-process through the
/// Release library (one `ReleasePlanner.state`, the next version and the rendered changelog
/// entry), against the lower of the two (a) medians. The repository is made once with
/// `git fast-import` and kept in `--work DIR` for later runs.
///
/// `slipway-bench release [--commits N] [--runs N] [--work DIR] [--slipway PATH]`, with both
/// binaries built by `Bench.buildCommand`.
enum ReleaseBenchmark {
    static let tag = "v1.4.2"

    static func run(_ arguments: [String]) async throws {
        let count = Bench.option("--commits", arguments).flatMap { Int($0) } ?? 10_000
        let runs = Bench.option("--runs", arguments).flatMap { Int($0) } ?? 11
        let work = Bench.option("--work", arguments) ?? NSTemporaryDirectory() + "slipway-bench-release"
        let repository = work + "/repo-\(count)"
        let slipway = Bench.slipwayBinary(arguments)
        guard FileManager.default.isExecutableFile(atPath: slipway) else {
            throw BenchError("no slipway binary at '\(slipway)'; build it next to slipway-bench (\(Bench.buildCommand) --product slipway) or pass --slipway PATH")
        }
        let start = ContinuousClock.now
        let made = try makeRepository(at: repository, commits: count)
        if made { print(String(format: "made %@ (%d commits after %@) in %.1f s", repository, count, tag, Bench.seconds(ContinuousClock.now - start))) }
        print("slipway-bench release — \(count) commits since \(tag), medians of \(runs) runs (after one warm-up)")

        // Each process is compared with git log run by run (alternately), so that the load of
        // the machine weighs on both alike; output goes to /dev/null.
        let git = try executable(named: "git")
        let gitLog = { try runQuietly(git, ["-C", repository, "log", "--oneline", "\(tag)..HEAD"]) }
        let version = try await PublishBenchmark.interleavedMedians(runs: runs, baseline: gitLog) {
            try runQuietly(slipway, ["version", "--next", "-C", repository, "--no-color"])
        }
        let changelog = try await PublishBenchmark.interleavedMedians(runs: runs, baseline: gitLog) {
            try runQuietly(slipway, ["changelog", "--since", tag, "-C", repository, "--no-color"])
        }
        var next = ""
        var entry = ""
        let renderer = try ChangelogRenderer()
        let library = try Bench.median(runs: runs) {
            let planner = try ReleasePlanner(directory: repository)
            let state = try planner.state()
            let version = try planner.nextVersion(.auto, state: state)
            next = version.description
            entry = renderer.render(planner.entry(for: version, state: state))
        }
        let lines = entry.split(separator: "\n").filter { $0.hasPrefix("- ") }.count
        print("next version \(next); changelog entry of \(lines) items, \(entry.utf8.count) bytes")

        let baseline = min(version.baseline, changelog.baseline)
        Bench.report("git log --oneline \(tag)..HEAD (baseline)", Bench.ms(baseline), target: "reference")
        report("slipway version --next (process)", version.candidate, baseline: version.baseline)
        report("slipway changelog --since \(tag) (process)", changelog.candidate, baseline: changelog.baseline)
        report("in-process: state + next version + changelog", library, baseline: baseline)
    }

    /// `candidate`'s median and its ratio to the `baseline` measured alongside it.
    static func report(_ name: String, _ seconds: Double, baseline: Double) {
        Bench.report(name, Bench.ms(seconds), target: "≤ 1.5× baseline")
        Bench.report("  ratio (baseline \(Bench.ms(baseline)))", String(format: "%.2f×", seconds / baseline), target: "≤ 1.50")
    }

    /// Runs a process with its output going to /dev/null; fails when it exits non-zero.
    static func runQuietly(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("'\(executable) \(arguments.joined(separator: " "))' exited with \(process.terminationStatus)")
        }
    }

    /// The first executable `name` on PATH.
    static func executable(named name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let found = path.split(separator: ":").map({ "\($0)/\(name)" }).first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw BenchError("'\(name)' is not on PATH")
        }
        return found
    }

    // MARK: - The repository

    /// Makes a repository of `commits` commits after a root commit tagged `tag` (annotated),
    /// unless one is already there; returns whether it made one.
    static func makeRepository(at path: String, commits: Int) throws -> Bool {
        let marker = path + "/.git/slipway-bench-complete"
        if FileManager.default.fileExists(atPath: marker) { return false }
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try GitFixture.run(["init", "--quiet", "--initial-branch=main"], in: path)
        try GitFixture.run(["fast-import", "--quiet"], in: path, input: Data(fastImportStream(commits: commits).utf8))
        try GitFixture.run(["reset", "--hard", "--quiet"], in: path)
        try GitFixture.run(["remote", "add", "origin", "https://git.example.com/example/slipway-bench.git"], in: path)
        try Data().write(to: URL(fileURLWithPath: marker))
        return true
    }

    /// A fast-import stream: a root commit with an annotated tag `tag`, then `commits` commits
    /// each changing one of 200 source files, with messages drawn deterministically from
    /// `message(_:_:)`.
    static func fastImportStream(commits: Int) -> String {
        var stream = ""
        stream.reserveCapacity((commits + 1) * 400)
        let root = "chore(release): 1.4.2\n"
        stream += "commit refs/heads/main\nmark :1\ncommitter Release Bot <bot@example.com> 1600000000 +0000\n"
        stream += "data \(root.utf8.count)\n\(root)M 644 inline VERSION\ndata 6\n1.4.2\n\n"
        let annotation = "Release \(tag)\n"
        stream += "tag \(tag)\nfrom :1\ntagger Release Bot <bot@example.com> 1600000000 +0000\n"
        stream += "data \(annotation.utf8.count)\n\(annotation)\n"
        var generator = Generator(seed: 0x5EED_1234_ABCD_0042)
        for number in 1...commits {
            let message = Self.message(number, &generator)
            let content = "// revision \(number)\n"
            let author = authors[Int(generator.next() % UInt64(authors.count))]
            stream += "commit refs/heads/main\nmark :\(number + 1)\n"
            stream += "author \(author) \(1_600_000_000 + number * 60) +0000\n"
            stream += "committer \(author) \(1_600_000_000 + number * 60) +0000\n"
            stream += "data \(message.utf8.count)\n\(message)from :\(number)\n"
            stream += "M 644 inline Sources/Module\(number % 20)/File\(number % 200).swift\ndata \(content.utf8.count)\n\(content)\n"
        }
        return stream
    }

    static let authors = ["Ada Lovelace <ada@example.com>", "Grace Hopper <grace@example.com>",
                          "Linus Example <linus@example.com>", "Margaret Hamilton <mh@example.com>"]
    static let scopes = ["cli", "git", "lanes", "pbxproj", "publish", "sync", "pins", "release", "upload", "sign"]
    static let verbs = ["add", "handle", "support", "speed up", "reject", "report", "simplify", "cache", "parse", "validate"]
    static let objects = ["empty commit messages", "tags on other commits", "multipart uploads", "nested groups",
                          "relative paths", "unicode file names", "annotated tags", "dry runs", "retries after 5xx",
                          "very long lines", "Windows line endings", "missing remotes"]

    /// A realistic mix: about 30% feat, 25% fix, 5% perf, 15% chore, 10% docs, 5% refactor,
    /// 5% test, 5% non-conventional ("Merge …", "WIP"); scopes on most; one in 150 breaking
    /// (`!` or a `BREAKING CHANGE:` footer); a third with a body of several lines.
    static func message(_ number: Int, _ generator: inout Generator) -> String {
        let roll = Int(generator.next() % 100)
        let type: String
        switch roll {
        case 0..<30: type = "feat"
        case 30..<55: type = "fix"
        case 55..<60: type = "perf"
        case 60..<75: type = "chore"
        case 75..<85: type = "docs"
        case 85..<90: type = "refactor"
        case 90..<95: type = "test"
        default: type = ""
        }
        let verb = verbs[Int(generator.next() % UInt64(verbs.count))]
        let object = objects[Int(generator.next() % UInt64(objects.count))]
        let summary = "\(verb) \(object) (#\(number))"
        let breaking = generator.next() % 150 == 0
        var header: String
        if type.isEmpty {
            header = generator.next() % 2 == 0 ? "Merge branch 'topic-\(number)' into main" : "WIP \(summary)"
        } else {
            let scope = generator.next() % 4 == 0 ? "" : "(\(scopes[Int(generator.next() % UInt64(scopes.count))]))"
            let bang = breaking && generator.next() % 2 == 0 ? "!" : ""
            header = "\(type)\(scope)\(bang): \(summary)"
        }
        var message = header + "\n"
        if generator.next() % 3 == 0 {
            message += "\nThe previous behaviour made \(object) fail in some set-ups; this change\n"
            message += "makes it \(verb) them as documented, with a test for the case.\n"
            if generator.next() % 2 == 0 { message += "\n- keeps the old option working\n- updates the docs\n" }
        }
        if breaking && !type.isEmpty {
            message += "\nBREAKING CHANGE: \(object) are now \(verb == "reject" ? "rejected" : "handled") differently; see the migration notes.\n"
        }
        if generator.next() % 5 == 0 { message += "\nRefs: #\(number)\n" }
        return message
    }

    /// xorshift64: the same history on every machine.
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
    }
}
