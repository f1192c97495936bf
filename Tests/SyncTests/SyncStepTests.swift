import Basics
import Foundation
import Networking
import Steps
import Sync
import TestSupport
import TestThreads
import Testing

/// The `sync` lane step: options, plan (the moves as effects), check and run.
@Suite("sync step", .dedicatedThreads)
struct SyncStepTests {
    final class Collector: StepEventSink, @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        var lines: [String] { lock.withLock { stored } }
        func log(_ level: LogLevel, _ message: String) { lock.withLock { stored.append("\(level): \(message)") } }
        func progress(fraction: Double?, message: String) {}
        func processOutput(_ stream: ProcessStream, line: String) {}
    }

    private func context(_ directory: String, _ events: Collector = Collector()) -> StepContext {
        StepContext(laneName: "test", stepID: "sync", workingDirectory: directory, environment: Environment(),
                    fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(), events: events,
                    services: StepServices(httpClient: SystemHTTPClient()))
    }

    @Test("plan lists the moves; check fails while out of place; run syncs; check then passes")
    func planCheckRun() async throws {
        let repository = try SyntheticRepository(files: 4, groups: 2)
        // The synthetic project's groups have names and no paths: they get folders with `folder`.
        let step = try SyncStep(options: StepOptions(["project": .string("App.xcodeproj"), "groups-without-path": .string("folder")], for: SyncStep.description))
        let effects = try await (step as any Step).plan(in: context(repository.root))
        #expect(effects.contains(Effect(.write, "move App/File000000.swift → App/Module0000/File000000.swift")))
        #expect(effects.contains { $0.kind == .write && $0.summary.hasPrefix("edit App.xcodeproj/project.pbxproj") })
        let check = try SyncStep(options: StepOptions(
            ["project": .string("App.xcodeproj"), "check": .bool(true), "groups-without-path": .string("folder")], for: SyncStep.description))
        await #expect(throws: StepError.self) { try await check.run(in: context(repository.root)) }
        let events = Collector()
        let outputs = try await step.run(in: context(repository.root, events))
        #expect(outputs == ["moved": "4", "edits": outputs["edits"] ?? "", "pruned": "0"])
        #expect(events.lines.contains { $0.hasPrefix("info: synced App.xcodeproj: 4 move(s)") })
        #expect(try await check.run(in: context(repository.root))["moved"] == "0")
    }

    @Test("options are typed: exclusions and switches reach the sync")
    func options() throws {
        let step = try SyncStep(options: StepOptions([
            "project": .string("App.xcodeproj"), "exclude": .list([.string("/App/Vendor")]), "prune": .bool(true),
            "sort-by-name": .bool(false), "default-exclusions": .bool(false), "allow-dirty": .bool(true),
        ], for: SyncStep.description))
        #expect(SyncStep.description.id == "sync")
        #expect(step.options == SyncOptions(prune: true, exclusions: ["/App/Vendor"], sortByName: false, defaultExclusions: false, allowDirty: true))
        #expect(throws: StepError.self) { try SyncStep(options: StepOptions(["project": .string("A"), "prune": .string("maybe")], for: SyncStep.description)) }
    }
}
