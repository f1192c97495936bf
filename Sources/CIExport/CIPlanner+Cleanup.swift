import Lanes
import Steps

extension CIPlanner {
    /// `finally` steps that undo what a step did to its machine. signing.cleanup removes the
    /// keychain signing.sync made: run in the `finally` job, on another runner, it would find
    /// nothing there, and on a self-hosted Mac the keychain with the certificate's private key
    /// would stay behind.
    static let machineCleanupKinds: Set<String> = ["signing.cleanup"]

    /// The index of the job whose machine `cleanup` cleans up: the one job that runs the steps
    /// its options refer to, on a runner the step can run on. Nil for any other `finally` step,
    /// and for a cleanup that refers to no step or to steps of several jobs (it stays in `finally`).
    static func machineCleanupJob(for cleanup: StepInvocation, in jobs: [CIJob], validated: ValidatedLane) -> Int? {
        guard machineCleanupKinds.contains(cleanup.kind) else { return nil }
        var referenced = Set<String>()
        for reference in validated.references(of: cleanup.id) {
            switch reference {
            case .stepOutput(let step, _), .step(let step): referenced.insert(step)
            default: break
            }
        }
        let owners = Set(jobs.indices.filter { index in !jobs[index].runsAlways && jobs[index].steps.contains(where: referenced.contains) })
        guard owners.count == 1, let index = owners.first else { return nil }
        let platforms = platforms(of: cleanup, in: validated)
        switch jobs[index].runner {
        case .platform(let platform): return platforms.contains(platform) ? index : nil
        case .label: return index
        }
    }
}

extension CIJob {
    /// This job with its cleanup steps as its steps (for their command), or nil when it has none.
    var cleanupJob: CIJob? {
        guard !cleanupSteps.isEmpty else { return nil }
        var cleanup = self
        cleanup.steps = cleanupSteps
        cleanup.cleanupSteps = []
        return cleanup
    }
}
