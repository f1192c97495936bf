import Basics
import Crypto
import Foundation
import Lanes
import TestSupport

/// Projects for `run --only` tests: an origin repository with the lane committed (and
/// `.slipway/` ignored, as in a real project) and fresh clones of it, each standing in for the
/// checkout of one CI runner.
enum OnlyRunSupport {
    static func origin(_ lane: String, name: String = "l", files: [String: String] = [:]) throws -> LaneFixture {
        let fixture = try LaneFixture([name: lane])
        try git(fixture, "init", "--quiet", "--initial-branch=main")
        try configureIdentity(fixture)
        try fixture.write(".gitignore", "/.slipway/\n")
        for (path, text) in files { try fixture.write(path, text) }
        try git(fixture, "add", "-A")
        try git(fixture, "commit", "--quiet", "-m", "chore: start")
        return fixture
    }

    /// A fresh clone of `origin` (a new runner's checkout).
    static func clone(_ origin: LaneFixture) throws -> LaneFixture {
        let fixture = try LaneFixture()
        try GitFixture.run(["clone", "--quiet", "file://" + origin.path, fixture.path], in: origin.path)
        try configureIdentity(fixture)
        return fixture
    }

    static func configureIdentity(_ fixture: LaneFixture) throws {
        try git(fixture, "config", "user.name", "Release Bot")
        try git(fixture, "config", "user.email", "bot@example.com")
    }

    /// Copies `.slipway/ci/` from one checkout to another (what the artifact download does).
    static func handOver(from source: LaneFixture, to destination: LaneFixture) throws {
        let from = source.path + "/.slipway/ci"
        let to = destination.path + "/.slipway/ci"
        try FileManager.default.createDirectory(atPath: to, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: from) {
            if FileManager.default.fileExists(atPath: to + "/" + name) { try FileManager.default.removeItem(atPath: to + "/" + name) }
            try FileManager.default.copyItem(atPath: from + "/" + name, toPath: to + "/" + name)
        }
    }

    @discardableResult
    static func git(_ fixture: LaneFixture, _ arguments: String...) throws -> String {
        try GitFixture.run(arguments, in: fixture.path)
    }

    /// The record `.slipway/ci/<step>.json` of a checkout.
    static func record(_ fixture: LaneFixture, _ step: String) throws -> HandOverRecord {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture.path + "/.slipway/ci/\(step).json"))
        return try JSONDecoder().decode(HandOverRecord.self, from: data)
    }

    /// The names in `.slipway/ci/` (empty when there is none).
    static func handOverFiles(_ fixture: LaneFixture) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixture.path + "/.slipway/ci")) ?? []).sorted()
    }

    /// Runs `--only steps`; returns the error's text, or nil when the run started.
    static func refusal(_ fixture: LaneFixture, lane: String = "l", only: [String],
                        configure: (inout LaneRunner.Options) -> Void = { _ in }) async -> String? {
        do {
            _ = try await fixture.run(lane) { options in
                options.only = only
                configure(&options)
            }
            return nil
        } catch {
            return errorText(error)
        }
    }

    static func laneDigest(_ fixture: LaneFixture, lane: String = "l") throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture.path + "/lanes/\(lane).yml"))
        return SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
