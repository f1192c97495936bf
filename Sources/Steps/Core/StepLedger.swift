import Basics

/// What a step still owes the world across an interruption, kept in the run journal: a write it
/// promised and Apple (or another service) has not accepted yet, such as a tester notification
/// owed once a build is in its groups. A run that continues an interrupted one (`--resume`,
/// `--from`) hands the step what the interrupted run recorded, so it can finish the job even
/// when everything else already looks done.
public protocol StepLedger: Sendable {
    /// What the interrupted run this one continues recorded as owed by this step (key → value);
    /// empty in a fresh run.
    var owedByEarlierRun: [String: String] { get }
    /// Records `value` as owed under `key` (nil clears it), stored in the run journal before it
    /// returns.
    /// - Throws: when it cannot be stored; the step must then not make the write it guards.
    func record(_ key: String, _ value: String?) throws
}

/// A ledger kept in memory: for runs without a journal (dry runs, tests, plugins).
public final class MemoryStepLedger: StepLedger {
    /// What an earlier run owed.
    public let owedByEarlierRun: [String: String]
    private let current: Locked<[String: String]>

    /// A ledger that starts with `owed` from an earlier run.
    public init(owedByEarlierRun owed: [String: String] = [:]) {
        owedByEarlierRun = owed
        current = Locked(owed)
    }

    /// What is owed now.
    public var owed: [String: String] { current.withLock { $0 } }

    /// Records `value` under `key` (nil clears it), in memory.
    public func record(_ key: String, _ value: String?) throws {
        current.withLock { $0[key] = value }
    }
}
