import Basics
import Crypto
import Foundation
import Git

/// The record of one run under `.slipway/runs/LANE/`: inputs, and each step's status and
/// (redacted) outputs, written after every step so that `--resume` can continue after a crash.
/// Versioned JSON with sorted keys; an unknown version is refused. Signed with this user's key
/// (`authenticator`), because `.slipway/` is checkout content: a journal committed to a branch
/// must not make `--resume` skip steps or hand made-up outputs to later ones.
public struct RunJournal: Codable, Sendable, Equatable {
    /// The format version this Slipway writes and reads.
    public static let currentVersion = 1

    public struct Step: Codable, Sendable, Equatable {
        public var id: String
        public var kind: String
        public var status: StepStatus
        public var outputs: [String: String]
        public var error: String?
        public var duration: Double?
    }

    public var version: Int
    public var lane: String
    public var file: String
    public var runID: String
    public var startedAt: String
    public var finishedAt: String?
    /// "running", or the lane's final status.
    public var status: String
    public var inputs: [String: String]
    public var steps: [Step]
    /// What steps owe across an interruption (step id → key → value; see `StepLedger`), carried
    /// into the journal of a run that continues this one; absent when nothing is owed.
    public var owed: [String: [String: String]]? = nil
    /// HMAC-SHA256 (hex) of the journal without this field and the project folder, with this
    /// user's key (`StateFiles.userKey`); set by `RunJournalStore.write`.
    public var authenticator: String? = nil
}

/// Reads and writes run journals.
///
/// `.slipway/runs/` is in the checkout, so every folder on the way is checked for symbolic
/// links (`StateFiles.checkPath`) before anything is read or written there, lock files are
/// opened without following links, and a journal is trusted for `--resume`/`--from` only when
/// it is signed with this user's key for this project and git does not track it.
public struct RunJournalStore: Sendable {
    let fileSystem: any FileSystem
    let projectDirectory: String
    let environment: Environment

    /// A store under `projectDirectory/.slipway/runs`; `environment` locates the user's key.
    public init(fileSystem: any FileSystem, projectDirectory: String, environment: Environment) {
        self.fileSystem = fileSystem
        self.projectDirectory = projectDirectory
        self.environment = environment
    }

    func directory(lane: String) -> String { "\(projectDirectory)/.slipway/runs/\(lane)" }

    /// `latest.json` of a lane, or nil when there is none or it cannot be decoded.
    /// - Throws: `LaneRunError.untrustedJournal` when it (or a folder on the way) is a symbolic
    ///   link or another user's, is larger than any journal, is tracked by git, or is not
    ///   signed by this user's Slipway for this project.
    public func latest(lane: String) throws -> RunJournal? {
        let path = directory(lane: lane) + "/latest.json"
        let display = ".slipway/runs/\(lane)/latest.json"
        let bytes: [UInt8]
        do {
            try StateFiles.checkPath(path, below: projectDirectory)
            guard let read = try StateFiles.read(path, limit: 16 << 20) else { return nil }
            bytes = read
        } catch let error as StateFileError {
            throw LaneRunError.untrustedJournal(file: display, reason: error.reason)
        }
        guard let journal = try? JSONDecoder().decode(RunJournal.self, from: Data(bytes)),
              journal.version == RunJournal.currentVersion else { return nil }
        if let repository = try? GitRepository.discover(from: projectDirectory), (try? repository.tracks(path)) ?? false {
            throw LaneRunError.untrustedJournal(file: display, reason: "git tracks it, so it came with the checkout")
        }
        let key: [UInt8]?
        do { key = try StateFiles.userKey(environment: environment, create: false) } catch let error as StateFileError {
            throw LaneRunError.untrustedJournal(file: display, reason: error.reason)
        }
        guard let key, let claimed = journal.authenticator, try authenticator(of: journal, key: key) == claimed else {
            throw LaneRunError.untrustedJournal(file: display, reason: "it is not signed by this user's Slipway for this project")
        }
        return journal
    }

    /// The HMAC of `journal` (without its own `authenticator`) and the project folder.
    private func authenticator(of journal: RunJournal, key: [UInt8]) throws -> String {
        var unsigned = journal
        unsigned.authenticator = nil
        let text = Array(try JSONFormatting.encoder(pretty: false).encode(unsigned)) + Array(("\n" + (StateFiles.resolved(projectDirectory) ?? projectDirectory)).utf8)
        return Array(HMAC<SHA256>.authenticationCode(for: text, using: SymmetricKey(data: key))).hexString
    }

    /// Creates the lane's journal folder after checking that nothing on the way from the project
    /// folder is a symbolic link; returns the folders created.
    @discardableResult
    private func createFolder(lane: String) throws -> [String] {
        let folder = directory(lane: lane)
        try StateFiles.checkPath(folder, below: projectDirectory)
        var missing: [String] = []
        var path = folder
        while path.count > projectDirectory.count, !fileSystem.exists(path) {
            missing.append(path)
            path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        }
        try fileSystem.createDirectory(folder)
        try StateFiles.checkPath(folder, below: projectDirectory)
        return missing
    }

    /// Writes the journal as `latest.json`, atomically; when the run is over (`final`), also as
    /// `RUNID.json`, the run's permanent record. Signed with this user's key.
    /// - Throws: `StateFileError` for a symbolic link on the way; `FileSystemError`.
    public func write(_ journal: RunJournal, final: Bool = false) throws {
        let folder = directory(lane: journal.lane)
        try createFolder(lane: journal.lane)
        var signed = journal
        if let key = try StateFiles.userKey(environment: environment, create: true) {
            signed.authenticator = try authenticator(of: journal, key: key)
        }
        let bytes = Array(try JSONFormatting.encoder().encode(signed))
        try fileSystem.writeAtomically(bytes, to: folder + "/latest.json")
        if final { try fileSystem.writeAtomically(bytes, to: folder + "/\(journal.runID).json") }
    }

    /// Takes the lock of a lane's journal folder, held for a whole run that writes the journal,
    /// so that two runs of one lane never share (and garble) it, and the second never runs a
    /// step. The lock file sits beside `latest.json`, where git steps already look away.
    /// - Throws: `LockError.busy` when another run of the lane holds it; `LockError.unavailable`
    ///   and `FileSystemError` when the folder cannot be created or the lock file opened;
    ///   `StateFileError` when the lock file or a folder on the way is a symbolic link.
    public func lock(lane: String) throws -> RunLock {
        let folder = directory(lane: lane)
        let run = RunLock(createdFolders: try createFolder(lane: lane))
        do {
            run.lock = try ExclusiveLock.acquire(
                at: folder + "/" + ExclusiveLock.fileName, activity: "running lane '\(lane)' in '\(projectDirectory)'")
        } catch {
            run.release()
            throw error
        }
        return run
    }

    /// A sortable id for a new run: UTC time and process id.
    public static func newRunID() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return "\(formatter.string(from: Date()))-\(getpid())"
    }
}

/// A lane's run lock (see `RunJournalStore.lock(lane:)`). Releasing it also removes the
/// folders taking it created, when they are still empty: a run refused before its first step
/// (bad inputs, a missing secret) leaves the project as it was.
public final class RunLock {
    fileprivate var lock: ExclusiveLock?
    private let createdFolders: [String]

    fileprivate init(createdFolders: [String]) {
        self.createdFolders = createdFolders
    }

    /// Releases the lock; then removes the folders it created if they are empty (`rmdir`
    /// refuses a folder with anything in it, so a journal is never touched).
    public func release() {
        lock?.release()
        lock = nil
        for folder in createdFolders { rmdir(folder) }
    }
}

/// Keeps the journal current as events arrive (they are already redacted), and what steps owe
/// as they record it (`record`, from the steps' own threads: hence the lock).
final class JournalReporter: RunReporter, @unchecked Sendable {
    private let store: RunJournalStore
    private let lock = NSLock()
    private var journal: RunJournal
    private var writeError: Error?

    /// `owed`: what the run this one continues still owed, kept until the steps clear it.
    init(store: RunJournalStore, lane: Lane, runID: String, inputs: [String: String], redactor: Redactor,
         owed: [String: [String: String]] = [:]) {
        self.store = store
        journal = RunJournal(version: RunJournal.currentVersion, lane: lane.name, file: lane.file, runID: runID,
                             startedAt: RunEvent.timestamp(), finishedAt: nil, status: "running",
                             inputs: redactor.redact(inputs), steps: [], owed: owed.isEmpty ? nil : owed)
    }

    /// Records (or with nil clears) what `step` owes under `key`, and writes the journal now.
    /// - Throws: when the journal cannot be written.
    func record(step: String, key: String, value: String?) throws {
        try lock.withLock {
            var owed = journal.owed ?? [:]
            owed[step, default: [:]][key] = value
            if owed[step]?.isEmpty == true { owed[step] = nil }
            journal.owed = owed.isEmpty ? nil : owed
            try store.write(journal)
        }
    }

    func receive(_ event: RunEvent) {
        lock.withLock { apply(event) }
    }

    private func apply(_ event: RunEvent) {
        switch event.event {
        case .laneStarted:
            save()
        case .stepFinished:
            guard let id = event.step, let status = event.status.flatMap(StepStatus.init(rawValue:)) else { return }
            let step = RunJournal.Step(id: id, kind: event.stepKind ?? "", status: status, outputs: event.outputs ?? [:],
                                       error: event.error, duration: event.duration)
            journal.steps.removeAll { $0.id == id }
            journal.steps.append(step)
            save()
        case .laneFinished:
            journal.status = event.status ?? "finished"
            journal.finishedAt = event.time
            save(final: true)
        default:
            break
        }
    }

    private func save(final: Bool = false) {
        do { try store.write(journal, final: final) } catch { writeError = error }
    }

    func finish(_ summary: RunSummary) throws {
        if let writeError = lock.withLock({ self.writeError }) { throw writeError }
    }
}
