import Lanes
import Steps

/// How a run of consecutive steps becomes jobs (the lane's `ci-jobs:`).
///
/// `per-runner` (the default) keeps steps that share machine state on one machine. A step that
/// runs on one system only (or has `runs-on:`) fixes the runner; a step that runs anywhere goes
/// with the next fixed step (signing and the version bump before the archive on the Mac), or,
/// after the last one, with the previous fixed step (so the files it changed are still there);
/// consecutive steps on the same runner are one job. `per-step` gives each step its own job.
extension CIPlanner {
    static func layOut(_ steps: [StepInvocation], validated: ValidatedLane) throws -> (groups: [[StepInvocation]], runners: [CIRunner]) {
        let fixed: [CIRunner?] = try steps.map { step in
            let platforms = platforms(of: step, in: validated)
            if step.runsOn != nil || platforms.count == 1 { return try runner(for: step, platforms: platforms) }
            return nil
        }
        if validated.lane.ciJobs == .perStep {
            let runners = try steps.map { try runner(for: $0, platforms: platforms(of: $0, in: validated)) }
            return (steps.map { [$0] }, runners)
        }
        var chosen: [CIRunner] = []
        for index in steps.indices {
            if let runner = fixed[index] {
                chosen.append(runner)
                continue
            }
            let platforms = platforms(of: steps[index], in: validated)
            let next = fixed[index...].compactMap { $0 }.first
            let previous = fixed[..<index].compactMap { $0 }.last
            let candidate = [next, previous].compactMap { $0 }.first { runner in
                if case .platform(let platform) = runner { return platforms.contains(platform) }
                return true
            }
            if let candidate {
                chosen.append(candidate)
            } else {
                chosen.append(try runner(for: steps[index], platforms: platforms))
            }
        }
        var groups: [[StepInvocation]] = []
        var runners: [CIRunner] = []
        for (step, runner) in zip(steps, chosen) {
            if let last = runners.last, last == runner {
                groups[groups.count - 1].append(step)
            } else {
                groups.append([step])
                runners.append(runner)
            }
        }
        return (groups, runners)
    }

    /// A step that uses a file another job's step wrote (`${{ steps.ID.outputs.NAME }}` of an
    /// output that is a path) gets it only through that step's `artifacts:`.
    static func checkFileHandOvers(_ jobs: [CIJob], validated: ValidatedLane) throws {
        var jobOf: [String: CIJob] = [:]
        for job in jobs { for step in job.steps { jobOf[step] = job } }
        let invocations = Dictionary(validated.lane.allInvocations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for job in jobs {
            for stepID in job.steps {
                guard let consumer = invocations[stepID] else { continue }
                for reference in validated.references(of: stepID) {
                    guard case .stepOutput(let producerID, let output) = reference, let producerJob = jobOf[producerID],
                          producerJob.id != job.id, let producer = invocations[producerID], producer.artifacts.isEmpty,
                          validated.kinds[producerID]?.description.outputs.first(where: { $0.name == output })?.isFile == true
                    else { continue }
                    throw CIExportError.fileNotHandedOver(
                        consumer: consumer.id, location: consumer.location.description, reference: "steps.\(producerID).outputs.\(output)",
                        producer: producerID, producerJob: producerJob.id, consumerJob: job.id)
                }
            }
        }
    }
}
