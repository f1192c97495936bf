import Basics
import FastlaneImport
import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway init --from-fastlane` on three large real Fastfiles (issue 40; Fixtures/fastfiles,
/// MANIFEST.md names each repository, commit and license). For each, in a temporary copy:
/// the lane files written and the listing printed equal the golden files in
/// `Fixtures/fastfiles/<app>/golden/`; nothing is executed; every `file:line` listed exists;
/// every action call the reader finds is translated or listed.
///
/// Golden files are re-recorded only when asked: `SLIPWAY_REGENERATE_GOLDEN=1 swift test
/// --skip-build --filter RealFastfileTests` rewrites them (then read the diff, and check the new
/// lines against the Fastfile by hand: docs/from-fastlane.md, "Three real Fastfiles").
@Suite(.dedicatedThreads) struct RealFastfileTests {
    static let fixtures = Corpus.repositoryRoot + "/Tests/SlipwayCLITests/Fixtures/fastfiles"
    static let regenerate = ProcessInfo.processInfo.environment["SLIPWAY_REGENERATE_GOLDEN"] == "1"

    /// The fixture folder, and the project (from Fixtures/versions, same commit) copied beside it.
    static let apps: [(folder: String, project: String?)] = [
        ("pocket-casts-ios", "versions/pocket-casts"), ("simplenote-ios", "versions/simplenote"), ("home-assistant-ios", nil),
    ]

    /// Tools a translation could be tempted to run; each leaves a marker when it is run.
    static let tools = ["fastlane", "bundle", "ruby", "pod", "git", "xcodebuild", "xcrun", "swift", "gem", "security", "curl"]

    struct Copy {
        let folder: TemporaryDirectory
        let outside: TemporaryDirectory
        var marker: String { outside.path + "/ran" }

        init(_ app: (folder: String, project: String?)) throws {
            folder = try TemporaryDirectory(prefix: "slipway-real-fastfile")
            outside = try TemporaryDirectory(prefix: "slipway-real-fastfile-tools")
            let manager = FileManager.default
            try manager.copyItem(atPath: RealFastfileTests.fixtures + "/" + app.folder + "/fastlane", toPath: folder.path + "/fastlane")
            if let project = app.project {
                let source = Corpus.repositoryRoot + "/Tests/SlipwayCLITests/Fixtures/" + project
                for item in try manager.contentsOfDirectory(atPath: source) where item.hasSuffix(".xcodeproj") || item == "config" {
                    try manager.copyItem(atPath: source + "/" + item, toPath: folder.path + "/" + item)
                }
            }
            for tool in RealFastfileTests.tools {
                let path = try outside.write("bin/" + tool, "#!/bin/sh\necho \"\(tool) $*\" >> '\(outside.path)/ran'\nexit 1\n")
                chmod(path, 0o755)
            }
        }

        func slipway(_ arguments: [String]) throws -> CommandResult {
            try CommandResult.run(Binaries.slipway, arguments, in: folder.path, environment: [
                "NO_COLOR": "1", "PATH": outside.path + "/bin", "HOME": outside.path, "XDG_CONFIG_HOME": outside.path + "/config",
            ])
        }
    }

    @Test(arguments: apps.map(\.folder))
    func theTranslationIsTheGoldenOneAndListsEveryCall(_ name: String) throws {
        let app = Self.apps.first { $0.folder == name }!
        let copy = try Copy(app)
        var before = try Snapshot.of(copy.folder.path)
        let result = try copy.slipway(["init", "--from-fastlane"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: copy.marker),
                "init ran \((try? String(contentsOfFile: copy.marker, encoding: .utf8)) ?? "")")

        // Only lanes/ was written.
        var after = try Snapshot.of(copy.folder.path)
        let written = after.keys.filter { $0.hasPrefix("lanes/") }.sorted()
        for key in written + ["lanes"] { after.removeValue(forKey: key) }
        before.removeValue(forKey: "lanes")
        #expect(after == before)

        try expectLocationsExist(in: result.standardOutput, root: copy.folder.path)
        let summary = try expectEveryCallAccountedFor(copy)
        try compareWithGolden(name, listing: result.standardOutput, summary: summary, lanes: copy.folder.path + "/lanes")
    }

    /// Each written lane file and the listing, byte for byte.
    func compareWithGolden(_ name: String, listing: String, summary: String, lanes: String) throws {
        let golden = Self.fixtures + "/" + name + "/golden"
        let manager = FileManager.default
        let files = ((try? manager.contentsOfDirectory(atPath: lanes)) ?? []).filter { $0.hasSuffix(".yml") }.sorted()
        if Self.regenerate {
            try? manager.removeItem(atPath: golden)
            try manager.createDirectory(atPath: golden + "/lanes", withIntermediateDirectories: true)
            try listing.write(toFile: golden + "/listing.txt", atomically: true, encoding: .utf8)
            try summary.write(toFile: golden + "/summary.txt", atomically: true, encoding: .utf8)
            for file in files { try manager.copyItem(atPath: lanes + "/" + file, toPath: golden + "/lanes/" + file) }
            return
        }
        let expected = try String(contentsOfFile: golden + "/listing.txt", encoding: .utf8)
        #expect(listing == expected, "the listing differs from \(golden)/listing.txt (SLIPWAY_REGENERATE_GOLDEN=1 re-records it)")
        let expectedSummary = try String(contentsOfFile: golden + "/summary.txt", encoding: .utf8)
        #expect(summary == expectedSummary, "the counts differ from \(golden)/summary.txt")
        let goldenFiles = ((try? manager.contentsOfDirectory(atPath: golden + "/lanes")) ?? []).sorted()
        #expect(files == goldenFiles)
        for file in files where goldenFiles.contains(file) {
            let text = try String(contentsOfFile: lanes + "/" + file, encoding: .utf8)
            let expectedText = try String(contentsOfFile: golden + "/lanes/" + file, encoding: .utf8)
            #expect(text == expectedText, "lanes/\(file) differs from \(golden)/lanes/\(file)")
        }
    }

    /// Every `fastlane/…:N` in the listing names a file of the copy with at least N lines.
    func expectLocationsExist(in listing: String, root: String) throws {
        let pattern = try NSRegularExpression(pattern: #"(\.?fastlane/[A-Za-z0-9_./-]+):([0-9]+)"#)
        let range = NSRange(listing.startIndex..., in: listing)
        var count = 0
        for match in pattern.matches(in: listing, range: range) {
            guard let file = Range(match.range(at: 1), in: listing).map({ String(listing[$0]) }),
                  let line = Range(match.range(at: 2), in: listing).flatMap({ Int(listing[$0]) }) else { continue }
            count += 1
            let text = try? String(contentsOfFile: root + "/" + file, encoding: .utf8)
            #expect(text != nil, "\(file):\(line) is listed, but \(file) does not exist")
            let lines = text.map { $0.split(separator: "\n", omittingEmptySubsequences: false).count } ?? 0
            #expect(line >= 1 && line <= lines, "\(file):\(line) is listed, but \(file) has \(lines) lines")
        }
        #expect(count > 0)
    }

    /// Every call the reader finds in a lane is listed at its `file:line`, or its action is
    /// among the lane's translated ones (or it calls another lane, whose calls are checked there).
    /// Returns the counts docs/from-fastlane.md's table gives (golden/summary.txt).
    func expectEveryCallAccountedFor(_ copy: Copy) throws -> String {
        let files = try FastlaneFiles.load(from: copy.folder.path, fileSystem: LocalFileSystem())
        let json = try copy.slipway(["init", "--from-fastlane", "--json", "--force"])
        #expect(json.status == 0, "\(json.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let lanes = (object?["lanes"] as? [[String: Any]]) ?? []
        let laneNames = Set(files.fastfile.lanes.map(\.name))
        func names(_ lane: [String: Any]) -> Set<String> { Set((lane["translated"] as? [String]) ?? []) }
        func listed(_ lane: [String: Any]) -> Set<String> {
            Set(((lane["untranslated"] as? [[String: Any]]) ?? []).compactMap { $0["location"] as? String })
        }
        var calls = 0, unaccounted: [String] = [], translatedCalls = 0, listedCalls = 0, laneCalls = 0, helperCalls = 0
        var actions: [String: Int] = [:]
        for lane in files.fastfile.lanes {
            // The translation names a platform's lane "ios beta", as fastlane does; a private lane
            // is not written on its own but followed where it is called, so its calls are looked
            // for in every lane.
            let qualified = lane.platform.map { "\($0) \(lane.name)" } ?? lane.name
            let own = lanes.filter { $0["fastlane"] as? String == qualified }
            if own.isEmpty && !lane.isPrivate {
                unaccounted.append("lane '\(lane.name)' (\(lane.file):\(lane.line)) is not in the translation")
                continue
            }
            let scope = lane.isPrivate && own.isEmpty ? lanes : own
            let names = scope.reduce(into: Set<String>()) { $0.formUnion(names($1)) }
            let listed = scope.reduce(into: Set<String>()) { $0.formUnion(listed($1)) }
            // A `def` in the Fastfile shadows an action and is followed where it is called (its
            // calls are listed or translated at the def's lines); the lane says so.
            let differences = scope.flatMap { ($0["differences"] as? [String]) ?? [] }
            func inlinedHelper(_ name: String) -> Bool { differences.contains { $0.hasPrefix("'\(name)' is a helper method") } }
            var variables = Set<String>()
            for statement in lane.statements {
                let call: RubyCall?
                switch statement.kind {
                case .call(let found): call = found
                case .assignment(let name, let found, _): call = found; variables.insert(name)
                default: call = nil
                }
                // A bare name assigned before in the lane is a variable read (a lane's return value), not a call.
                guard let call, !(variables.contains(call.name) && call.positional.isEmpty && call.keywords.isEmpty) else { continue }
                calls += 1
                let location = "\(statement.file):\(statement.line)"
                if laneNames.contains(call.name) { laneCalls += 1; continue }
                actions[call.name, default: 0] += 1
                if listed.contains(location) { listedCalls += 1; continue }
                if names.contains(call.name) { translatedCalls += 1; continue }
                if inlinedHelper(call.name) { helperCalls += 1; continue }
                unaccounted.append("\(location) \(call.name) in lane '\(lane.name)'")
            }
        }
        #expect(calls > 0)
        #expect(unaccounted.isEmpty, "neither translated nor listed: \(unaccounted.joined(separator: "; "))")
        let written = lanes.filter { ($0["lane"] as? String) != nil }.count
        let items = lanes.reduce(0) { $0 + (($1["untranslated"] as? [Any])?.count ?? 0) }
        return """
            lanes: \(files.fastfile.lanes.count) (\(files.fastfile.lanes.filter(\.isPrivate).count) private), \(written) written
            calls in lanes (the reader): \(calls): \(translatedCalls) translated, \(listedCalls) listed at their line, \(helperCalls) of the Fastfile's helper methods (followed), \(laneCalls) of other lanes
            items listed (every lane, before_all's repeated): \(items)
            actions called: \(actions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))

            """
    }
}
