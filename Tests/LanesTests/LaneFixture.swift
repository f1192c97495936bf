import Basics
import Foundation
import Lanes
import Networking
import Steps
import TestSupport

/// A project folder with lane files, and helpers to validate and run them for real.
final class LaneFixture: @unchecked Sendable {
    let directory: TemporaryDirectory
    /// The user's state folder of the runs (`XDG_STATE_HOME`: the key that signs run journals).
    let stateHome: TemporaryDirectory
    var environment: Environment
    /// The platform lanes are validated for.
    var platform: Platform = .current
    /// The waits between a step's attempts (`StepServices.sleep`); nil: real waits.
    var sleep: (@Sendable (Duration) async throws -> Void)?
    var path: String { directory.path }

    init(_ lanes: [String: String] = [:], environment extra: [String: String] = [:]) throws {
        directory = try TemporaryDirectory(prefix: "slipway-lanes")
        stateHome = try TemporaryDirectory(prefix: "slipway-lanes-state")
        environment = Environment.current.merging(["XDG_STATE_HOME": stateHome.path]).merging(extra)
        for (name, text) in lanes { try directory.write("lanes/\(name).yml", text) }
    }

    func write(_ relative: String, _ text: String) throws { try directory.write(relative, text) }

    var workspace: LaneWorkspace {
        LaneWorkspace(projectDirectory: path, fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(gracePeriod: .milliseconds(500)),
                      environment: environment, stepServices: stepServices, platform: platform)
    }

    var stepServices: StepServices {
        guard let sleep else { return StepServices(httpClient: SystemHTTPClient()) }
        return StepServices(httpClient: SystemHTTPClient(), sleep: sleep)
    }

    func validate(_ lane: String) async throws -> ValidatedLane {
        try await workspace.validate(lane)
    }

    /// The diagnostics validation throws (empty when the lane is valid).
    func problems(_ lane: String) async -> [String] {
        do {
            _ = try await validate(lane)
            return []
        } catch let error as DiagnosticsError {
            return error.diagnostics.filter { $0.severity == .error }.map(\.description)
        } catch {
            return ["other: \(errorText(error))"]
        }
    }

    struct Outcome {
        var summary: RunSummary
        var console: String
        var events: [RunEvent]
        func status(_ step: String) -> StepStatus? { summary.steps.first { $0.id == step }?.status }
        func outputs(_ step: String) -> [String: String] { summary.steps.first { $0.id == step }?.outputs ?? [:] }
    }

    func run(_ lane: String, configure: (inout LaneRunner.Options) -> Void = { _ in },
             extraReporters: [any RunReporter] = []) async throws -> Outcome {
        var options = LaneRunner.Options()
        configure(&options)
        let console = BufferedOutput()
        let recorder = RecordingReporter()
        let reporters: [any RunReporter] = [ConsoleReporter(output: console, style: .plain), recorder] + extraReporters
        let summary = try await workspace.run(lane, options: options, reporters: reporters)
        return Outcome(summary: summary, console: console.text, events: recorder.events)
    }

    /// Every file under the folder with its contents (to prove nothing changed).
    func snapshot() throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = path + "/" + relative
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = FileManager.default.contents(atPath: full)
            } else {
                result[relative + "/"] = Data()
            }
        }
        return result
    }
}

/// Keeps every event.
final class RecordingReporter: RunReporter, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [RunEvent] = []
    var events: [RunEvent] { lock.withLock { stored } }
    func receive(_ event: RunEvent) { lock.withLock { stored.append(event) } }
}
