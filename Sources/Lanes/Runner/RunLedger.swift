import Basics
import Foundation
import Steps

/// Hands each step a `StepLedger` over the run's journal: what the run this one continues
/// (`--resume`, `--from`) recorded as owed, and a `record` that writes the journal before it
/// returns. Without a journal (a dry run) the ledger is kept in memory.
struct RunLedger: Sendable {
    /// Step id → key → value, from the previous run's journal.
    let earlier: [String: [String: String]]
    /// The run's journal, nil when none is written.
    let journal: JournalReporter?

    /// The ledger of step `id`.
    func forStep(_ id: String) -> any StepLedger {
        guard let journal else { return MemoryStepLedger(owedByEarlierRun: earlier[id] ?? [:]) }
        return JournalStepLedger(step: id, owedByEarlierRun: earlier[id] ?? [:], journal: journal)
    }
}

/// A step's ledger written to the run journal.
struct JournalStepLedger: StepLedger {
    let step: String
    let owedByEarlierRun: [String: String]
    let journal: JournalReporter

    func record(_ key: String, _ value: String?) throws {
        do {
            try journal.record(step: step, key: key, value: value)
        } catch {
            throw StepError.failed("could not write the run journal (.slipway/runs/) to record what step '\(step)' owes "
                                   + "('\(key)'): \(errorText(error)). Make .slipway/runs/ writable, then continue the run with --resume.")
        }
    }
}
