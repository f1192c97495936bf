import Basics
import Foundation
import Git

/// `slipway run LANE --only STEP...`: which steps run, and what the hand-over records in
/// `.slipway/ci/` say of the steps before them (outputs, statuses, git changes). Everything is
/// checked before anything runs.
struct OnlyRun: Sendable {
    let selected: Set<String>
    /// The records of the steps before the first selected one, in lane order (records of
    /// selected and later steps are ignored: this run writes them anew).
    let earlier: [HandOverRecord]
    let laneDigest: String
    /// The commit the job checked out (before any git hand-over); nil outside git.
    let baseCommit: GitOID?
    let repository: GitRepository?
    /// True when this checkout already has the earlier jobs' git changes (a second run here).
    let alreadyApplied: Bool
    let store: HandOverStore

    /// The outputs of the earlier steps that succeeded.
    var outputs: [String: StepOutputs] {
        Dictionary(earlier.filter { $0.status == .succeeded }.map { ($0.stepID, $0.outputs) }, uniquingKeysWith: { a, _ in a })
    }

    /// Checks the selection (`--only`'s step ids, in the order given) and the records; throws
    /// `HandOverError` when the run cannot start.
    static func prepare(_ validated: ValidatedLane, selection: [String], services: LaneRunner.Services) throws -> OnlyRun {
        let lane = validated.lane
        let known = lane.allInvocations.map(\.id)
        var unknown: [String] = []
        for id in selection where !known.contains(id) && !unknown.contains(id) { unknown.append(id) }
        if !unknown.isEmpty { throw HandOverError.unknownOnlySteps(unknown, known: known) }
        let selected = Set(selection)
        let store = HandOverStore(fileSystem: services.fileSystem, projectDirectory: services.projectDirectory)
        let digest = try store.laneDigest(file: lane.file)
        let repository = try? GitRepository.discover(from: services.projectDirectory)
        let records = try store.readAll(repository: repository)
        for (id, record) in records.sorted(by: { $0.key < $1.key }) {
            if record.lane != lane.name {
                throw HandOverError.otherLane(file: store.displayPath(step: id), recorded: record.lane, lane: lane.name)
            }
            if record.laneDigest != digest { throw HandOverError.laneChanged(file: store.displayPath(step: id), laneFile: lane.file) }
            if record.git != nil && repository == nil {
                throw HandOverError.notAGitRepository(file: store.displayPath(step: id), project: services.projectDirectory)
            }
        }
        let nodes = lane.steps + lane.finally
        let first = nodes.firstIndex { $0.invocations.contains { selected.contains($0.id) } } ?? nodes.count
        let earlier = nodes[..<first].flatMap(\.invocations).compactMap { records[$0.id] }
        let head = try repository?.head().commit
        let (base, applied) = try base(head: head, records: records, earlier: earlier, store: store)
        try checkReferences(validated, selected: selected, recorded: Set(earlier.map(\.stepID)))
        return OnlyRun(selected: selected, earlier: earlier, laneDigest: digest, baseCommit: base, repository: repository,
                       alreadyApplied: applied, store: store)
    }

    /// The job's base commit: HEAD, which every record must name, or (when this checkout already
    /// had the hand-over applied) the records' base, HEAD being the last recorded head.
    private static func base(head: GitOID?, records: [String: HandOverRecord], earlier: [HandOverRecord],
                             store: HandOverStore) throws -> (GitOID?, Bool) {
        let lastHead = earlier.last { $0.git != nil }?.git?.head
        var applied = false
        for (id, record) in records.sorted(by: { $0.key < $1.key }) where record.baseCommit != head?.hex {
            let bases = Set(records.values.map(\.baseCommit))
            if let lastHead, head?.hex == lastHead, bases.count == 1, record.baseCommit != nil {
                applied = true
                continue
            }
            throw HandOverError.otherCommit(file: store.displayPath(step: id), recorded: record.baseCommit ?? "none (not a git repository)",
                                            current: head?.hex ?? "none (not a git repository)")
        }
        if applied, let recorded = records.values.first?.baseCommit { return (GitOID(hex: recorded), true) }
        return (head, false)
    }

    /// Every `steps.X.outputs.Y` a selected step uses must come from a selected step before it
    /// or from a record.
    private static func checkReferences(_ validated: ValidatedLane, selected: Set<String>, recorded: Set<String>) throws {
        var available = recorded
        for node in validated.lane.steps + validated.lane.finally {
            let chosen = node.invocations.filter { selected.contains($0.id) }
            for invocation in chosen {
                for template in validated.templates[invocation.id] ?? [] {
                    for reference in template.references {
                        if let step = reference.step, !available.contains(step) {
                            throw HandOverError.missingOutput(step: invocation.id, reference: "\(reference)", source: step)
                        }
                    }
                }
            }
            available.formUnion(chosen.map(\.id))
        }
    }

    /// Whether an earlier step failed in a way that fails the lane (not `continue-on-error`).
    func earlierFailed(in lane: Lane) -> Bool {
        earlier.contains { record in
            record.status == .failed && !(lane.allInvocations.first { $0.id == record.stepID }?.continueOnError ?? false)
        }
    }

    /// The first step, in the lane's order, whose record says it failed the lane (for
    /// `${{ lane.failed-step }}` in a later job).
    func earlierFailedStep(in lane: Lane) -> String? {
        let failed = Set(earlier.filter { $0.status == .failed }.map(\.stepID))
        return lane.allInvocations.first { failed.contains($0.id) && !$0.continueOnError }?.id
    }

    /// `nodes` with only the selected steps (a parallel group keeps its selected members).
    func filter(_ nodes: [StepNode]) -> [StepNode] {
        nodes.compactMap { node in
            switch node {
            case .step(let invocation):
                return selected.contains(invocation.id) ? node : nil
            case .parallel(var group):
                group.steps = group.steps.filter { selected.contains($0.id) }
                return group.steps.isEmpty ? nil : .parallel(group)
            }
        }
    }

    /// Brings the earlier jobs' git changes into this checkout (unless already there).
    func applyGitHandOver() throws {
        guard !alreadyApplied, let repository else { return }
        try GitHandOver.apply(earlier, store: store, repository: repository)
        if let last = earlier.last(where: { $0.worktree != nil }) {
            try WorktreeHandOver.apply(last, store: store, repository: repository)
        }
    }

    /// The writer of this run's records.
    func writer(redactor: Redactor, lane: String) -> HandOverWriter {
        HandOverWriter(store: store, lane: lane, laneDigest: laneDigest, baseCommit: baseCommit, repository: repository,
                       redactor: redactor)
    }
}
