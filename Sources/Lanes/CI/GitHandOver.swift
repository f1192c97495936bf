import Basics
import Foundation
import Git

/// HEAD and the tags of a repository at one moment.
struct GitSnapshot: Equatable {
    var head: GitOID?
    var branch: String?
    /// Tag name → what its ref points at (the tag object of an annotated tag).
    var tags: [String: GitOID]

    init(_ repository: GitRepository) throws {
        let head = try repository.head()
        self.head = head.commit
        branch = head.branch
        tags = Dictionary(try repository.tags().map { ($0.name, $0.tagObject ?? $0.commit) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Applies earlier jobs' git changes to this checkout: their packs indexed in lane order, their
/// tags created, then the branch and HEAD moved to the last recorded head and the working tree
/// checked out forcibly.
enum GitHandOver {
    static func apply(_ records: [HandOverRecord], store: HandOverStore, repository: GitRepository) throws {
        // Every pack is read before anything changes, so a missing one changes nothing.
        let changes = try records.compactMap { record in
            try record.git.map { (record, $0, try store.readPack(step: record.stepID)) }
        }
        var last: (head: GitOID, branch: String?)?
        for (record, git, pack) in changes {
            let file = store.displayPath(step: record.stepID)
            try repository.indexPack(pack, source: store.displayPath(step: record.stepID, suffix: "pack"))
            for (name, id) in git.tags.sorted(by: { $0.key < $1.key }) {
                guard let target = GitOID(hex: id) else {
                    throw HandOverError.unreadableRecord(file: file, detail: "tag '\(name)' points at '\(id)', not at an object id")
                }
                try repository.setReference("refs/tags/" + name, to: target, reason: "slipway: hand-over of step \(record.stepID)")
            }
            guard let head = GitOID(hex: git.head) else {
                throw HandOverError.unreadableRecord(file: file, detail: "'git.head' is '\(git.head)', not a commit id")
            }
            last = (head, git.branch)
        }
        if let last {
            try repository.moveHead(to: last.head, branch: last.branch, reason: "slipway: hand-over of earlier jobs")
        }
    }
}

/// Writes a hand-over record (and, when the step changed git, its pack) as each step of an
/// `--only` run finishes. Steps of a parallel group finish one at a time here; a git change is
/// credited to the step whose end first sees it.
final class HandOverWriter: Sendable {
    private struct State {
        var previous: GitSnapshot?
        var errors: [String] = []
    }

    private let store: HandOverStore
    private let lane: String
    private let laneDigest: String
    private let baseCommit: GitOID?
    private let repository: GitRepository?
    private let redactor: Redactor
    private let state: Locked<State>

    init(store: HandOverStore, lane: String, laneDigest: String, baseCommit: GitOID?, repository: GitRepository?,
         redactor: Redactor) {
        self.store = store
        self.lane = lane
        self.laneDigest = laneDigest
        self.baseCommit = baseCommit
        self.repository = repository
        self.redactor = redactor
        state = Locked(State(previous: repository.flatMap { try? GitSnapshot($0) }))
    }

    /// What went wrong writing records, if anything.
    var failures: [String] { state.withLock { $0.errors } }

    func stepFinished(_ result: StepResult) {
        state.withLock { state in
            do {
                let git = try gitChange(step: result.id, previous: &state.previous)
                let worktree = try repository.map { try WorktreeHandOver.capture($0, step: result.id, store: store) }
                let record = HandOverRecord(
                    lane: lane, laneDigest: laneDigest, baseCommit: baseCommit?.hex, stepID: result.id,
                    status: HandOverRecord.status(of: result.status), outputs: redactor.redact(result.outputs),
                    git: git, artifacts: result.artifacts.map(redactor.redact), worktree: worktree)
                try store.write(record)
            } catch {
                state.errors.append("the hand-over record of step '\(result.id)' could not be written: \(errorText(error))")
            }
        }
    }

    /// The git state to record when HEAD moved or tags appeared since the last look; writes the
    /// pack of everything new since the base commit. Call with the lock held (`previous` is
    /// the locked state's).
    private func gitChange(step: String, previous: inout GitSnapshot?) throws -> HandOverRecord.GitState? {
        guard let repository, let before = previous else { return nil }
        let now = try GitSnapshot(repository)
        previous = now
        let newTags = now.tags.filter { before.tags[$0.key] != $0.value }
        guard let head = now.head, now.head != before.head || !newTags.isEmpty else { return nil }
        var tips = newTags.keys.sorted().compactMap { newTags[$0] }
        if now.head != before.head { tips.append(head) }
        let pack = try repository.packObjects(reachableFrom: tips, excluding: baseCommit.map { [$0] } ?? [])
        try store.writePack(pack, step: step)
        return HandOverRecord.GitState(head: head.hex, branch: now.branch, tags: newTags.mapValues(\.hex))
    }
}
