import Lanes
import Steps
import YAMLSupport

/// What `signing.sync` installs (a certificate in a keychain or a folder, profiles under
/// `~/Library`) stays on the machine that ran it: no hand-over record or artifact carries a
/// keychain's search list. An `xcode.archive` or `xcode.export` in another job would sign on a
/// fresh runner without them and fail there, after the macOS minutes were spent; the export
/// refuses the lane instead, naming both steps and both jobs.
extension CIPlanner {
    /// The steps that sign with what the last `signing.sync` before them installed.
    static let signingConsumers: Set<String> = ["xcode.archive", "xcode.export"]

    /// Throws `.signingNotHandedOver` for the first `xcode.archive`/`xcode.export` whose job is
    /// not the job of the last `signing.sync` before it in the lane. A sync with `install: none`
    /// installs nothing to lose, and one with `install: directory` and `artifacts:` hands its
    /// files on itself.
    static func checkSigningHandOvers(_ jobs: [CIJob], validated: ValidatedLane) throws {
        var jobOf: [String: CIJob] = [:]
        for job in jobs { for step in job.steps { jobOf[step] = job } }
        var lastSigning: StepInvocation?
        for invocation in validated.lane.steps.flatMap(\.invocations) {
            if invocation.kind == "signing.sync" {
                lastSigning = invocation
                continue
            }
            guard signingConsumers.contains(invocation.kind), let signing = lastSigning,
                  let signingJob = jobOf[signing.id], let consumerJob = jobOf[invocation.id], signingJob.id != consumerJob.id
            else { continue }
            let install = literalOption("install", of: signing)
            if install == "none" || (install == "directory" && !signing.artifacts.isEmpty) { continue }
            throw CIExportError.signingNotHandedOver(
                consumer: invocation.id, kind: invocation.kind, location: invocation.location.description, signing: signing.id,
                signingJob: signingJob.id, consumerJob: consumerJob.id)
        }
    }

    /// `platforms` without Linux for a `signing.sync` with `install: keychain`, which needs
    /// macOS's `security` tool: the step runs anywhere, but that install only on a Mac.
    static func narrowedByInstall(_ invocation: StepInvocation, _ platforms: Set<Platform>) -> Set<Platform> {
        guard invocation.kind == "signing.sync", literalOption("install", of: invocation) == "keychain",
              platforms.contains(.macOS) else { return platforms }
        return [.macOS]
    }

    /// The option `name` of `invocation` when written as a plain value (nil for an expression or when absent).
    static func literalOption(_ name: String, of invocation: StepInvocation) -> String? {
        guard case .mapping(let entries, _)? = invocation.options,
              let text = entries.first(where: { $0.key.text == name })?.value.scalar?.text, !text.contains("${{") else { return nil }
        return text
    }
}
