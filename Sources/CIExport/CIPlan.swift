import Lanes
import Steps

/// A lane laid out as CI jobs, independent of the engine: what every renderer writes.
public struct CIPlan: Sendable, Equatable {
    /// The lane's name (`slipway run NAME`).
    public var lane: String
    /// The lane file as shown in messages, e.g. `lanes/release.yml`.
    public var laneFile: String
    /// The lane's description, if any.
    public var description: String?
    /// The lane's inputs, in file order: the engine's manual inputs.
    public var inputs: [CIInput]
    /// The jobs in lane order; the `finally` job, if any, is last.
    public var jobs: [CIJob]
    /// True when the lane has `requires:`: every job restores the tools cache and runs
    /// `slipway tools install`.
    public var installsTools: Bool
    /// Every declared secret, in file order.
    public var secrets: [String]
}

/// A lane input as the engines offer it.
public struct CIInput: Sendable, Equatable {
    /// The value types of engine inputs.
    public enum Kind: String, Sendable, Equatable {
        case string, number, boolean, choice
    }

    /// The lane's name for it (`--input NAME=...`).
    public var name: String
    public var kind: Kind
    /// The choices of a `.choice` input.
    public var options: [String]
    /// The default as text (`true`, `3`, `auto`); nil when the input is required.
    public var defaultValue: String?
    public var isRequired: Bool
    public var description: String?

    /// The environment variable the job passes it through: `SLIPWAY_INPUT_` and the name
    /// upper-cased, with characters outside `A-Z0-9_` as `_`.
    public var environmentVariable: String { LaneNames.environmentVariable(forInput: name) }
}

/// Where a job runs.
public enum CIRunner: Sendable, Equatable {
    /// A runner of this operating system (mapped to the engine's runner label).
    case platform(Platform)
    /// A label given with `runs-on:`, passed through as written.
    case label(String)
}

/// One CI job: consecutive steps that share a runner (or one step, with `ci-jobs: per-step`),
/// one member of a parallel group, or all `finally` steps.
public struct CIJob: Sendable, Equatable {
    /// The job's id in the pipeline (see `CIPlanner.jobID`).
    public var id: String
    /// A display name: the step's name or id, or `finally`.
    public var name: String
    /// The steps it runs with `slipway run LANE --only ...`, in lane order.
    public var steps: [String]
    /// The jobs it waits for: those of the previous top-level node (all others, for `finally`).
    public var needs: [String]
    /// Every job before it (transitively): whose hand-over artifacts it downloads.
    public var ancestors: [String]
    public var runner: CIRunner
    /// The secrets its steps refer to (`${{ secrets.X }}`), in declaration order.
    public var secrets: [String]
    /// The globs its steps declare with `artifacts:`, in order, without duplicates.
    public var artifacts: [String]
    /// True for the job of the `finally` steps: it runs whatever happened before.
    public var runsAlways: Bool
    /// `finally` steps that clean up this job's machine (signing.cleanup of the keychain a
    /// signing.sync of this job made): they run at the end of this job whatever happened, on the
    /// machine that holds what they remove, not in the `finally` job on another runner.
    public var cleanupSteps: [String] = []

    /// The name of its hand-over artifact: `slipway-<id>` (unique per job, as GitHub's v4+
    /// artifacts require).
    public var artifactName: String { "slipway-" + id }
}

/// Why a lane cannot be exported.
public enum CIExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `runs-on:` names an operating system the step does not run on.
    case runnerExcludesStep(step: String, kind: String, location: String, runsOn: String, platforms: [String])
    /// No runner runs every `finally` step.
    case noCommonFinallyRunner(steps: [String], location: String)
    /// `--to` names an engine Slipway does not export to.
    case unknownEngine(String)
    /// `--runner` is not `linux=LABEL` or `macos=LABEL`.
    case badRunnerOption(String)
    /// Text bound for the pipeline file has a control character (`character`, e.g. `U+000A`)
    /// at `path` (e.g. `jobs.build.name`): it could end its line and add keys to the file.
    case unsafePipelineText(character: String, path: String)
    /// A name that reaches commands, keys or expressions of the pipeline breaks the grammar of
    /// `LaneNames` (a lane that was not validated, or a lane file's name).
    case unsafeName(what: String, name: String)
    /// `ci check`'s file is a symbolic link, a folder or a device, not a committed file.
    case committedFileNotRegular(String)
    /// `ci check`'s file is larger than any pipeline Slipway writes.
    case committedFileTooLarge(String, bytes: Int, limit: Int)
    /// `ci export --output`'s path goes through a symbolic link (`link`) inside the project.
    case outputThroughLink(String, link: String)
    /// A mapping of the pipeline would have `key` twice (two names that map to one key).
    case duplicatePipelineKey(key: String, path: String)
    /// `consumer` uses a file `producer` writes, in another job, and `producer` has no
    /// `artifacts:` to carry it there.
    case fileNotHandedOver(consumer: String, location: String, reference: String, producer: String, producerJob: String, consumerJob: String)
    /// `consumer` (xcode.archive or xcode.export) signs in another job than the `signing.sync`
    /// before it, whose keychain and profiles stay on that job's machine.
    case signingNotHandedOver(consumer: String, kind: String, location: String, signing: String, signingJob: String, consumerJob: String)
    /// Neither Toolfile.lock pins `slipway` nor does an option say how jobs get it
    /// (`lockfileExists`: whether there is a Toolfile.lock at all).
    case slipwayNotPinned(lockfileExists: Bool)
    /// Toolfile.lock's `slipway` is a git or system tool, not an archive the jobs can download.
    case slipwayPinNotArchive(source: String)
    /// A value of Toolfile.lock's `slipway` entry (`field`, e.g. `archive.platforms.linux-x86_64.url`)
    /// is malformed or could change the install script.
    case slipwayPinUnsafe(field: String, value: String, reason: String)
    /// `--slipway-setup` and `--slipway-on-path` were both given.
    case conflictingSlipwayOptions
    /// Toolfile.lock could not be read for Slipway's pin (`message`: why, from Pins).
    case slipwayLockUnreadable(String)

    public var description: String {
        switch self {
        case .runnerExcludesStep(let step, let kind, let location, let runsOn, let platforms):
            let list = platforms.joined(separator: ", ")
            return "\(location): step '\(step)' (\(kind)) runs only on \(list), but 'runs-on: \(runsOn)' puts it on a \(runsOn) runner; set 'runs-on: \(platforms.first ?? "macos")' or remove 'runs-on:' to let its platforms choose"
        case .noCommonFinallyRunner(let steps, let location):
            return "\(location): the finally steps (\(steps.joined(separator: ", "))) run as one job, but no runner runs all of them; give them one 'runs-on:' they all support or move the platform-specific one into 'steps:'"
        case .unknownEngine(let name):
            return "unknown CI engine '\(name)'; use one of: \(CIEngine.allCases.map(\.rawValue).joined(separator: ", "))"
        case .badRunnerOption(let text):
            return "--runner '\(text)' must be linux=LABEL or macos=LABEL (the engine's runner label for that system)"
        case .unsafePipelineText(let character, let path):
            return "refusing to write the pipeline: the text for '\(path)' has \(character), which could end its line and "
                + "add keys to the file; names, descriptions, artifact patterns and --slipway-setup must be one line of text"
        case .unsafeName(let what, let name):
            return "refusing to export: \(what) '\(LaneNames.escaped(name))' may only use ASCII letters, digits, '_', '-' "
                + "(and '.' in step ids and lane names), starting with a letter or '_' (a digit too for step ids and lane names), "
                + "since it is written into commands, keys and expressions of the pipeline; rename it"
        case .committedFileNotRegular(let file):
            return "'\(file)' is not a regular file (a symbolic link, folder or device); 'ci check' compares the committed "
                + "pipeline file itself: replace it with the output of 'slipway ci export'"
        case .committedFileTooLarge(let file, let bytes, let limit):
            return "'\(file)' is \(bytes) bytes, more than the \(limit) bytes of any pipeline Slipway writes; it is not an "
                + "exported pipeline: replace it with the output of 'slipway ci export'"
        case .outputThroughLink(let output, let link):
            return "'\(output)' is inside '\(link)', which is a symbolic link; 'ci export' writes only inside the project: "
                + "remove the link, or give --output a path without it"
        case .fileNotHandedOver(let consumer, let location, let reference, let producer, let producerJob, let consumerJob):
            return "\(location): step '\(consumer)' uses '\(reference)', a file that step '\(producer)' writes in job "
                + "'\(producerJob)', but '\(consumer)' runs in job '\(consumerJob)' on another machine; add 'artifacts:' "
                + "with the file's path to step '\(producer)' so that it travels, or keep both steps in one job "
                + "(the same 'runs-on:', or 'ci-jobs: per-runner')"
        case .signingNotHandedOver(let consumer, let kind, let location, let signing, let signingJob, let consumerJob):
            return "\(location): step '\(consumer)' (\(kind)) signs with the certificate and profiles that step '\(signing)' "
                + "(signing.sync) installs in job '\(signingJob)', but '\(consumer)' runs in job '\(consumerJob)' on another "
                + "machine, where they are not installed; keep both steps in one job (no 'ci-jobs: per-step', and no "
                + "'runs-on:' that puts them on different runners), or give '\(signing)' 'install: none' if nothing signs with its install"
        case .slipwayNotPinned(let lockfileExists):
            return SlipwayPinMessages.notPinned(lockfileExists: lockfileExists)
        case .slipwayPinNotArchive(let source):
            return "Toolfile.lock pins 'slipway' as a \(source) tool, but exported jobs install Slipway from a prebuilt archive: "
                + "make 'slipway' an archive tool in the Toolfile (archive:, executable:, platforms:, version:) and run "
                + "'slipway tools lock', or pass --slipway-on-path or --slipway-setup COMMAND"
        case .slipwayPinUnsafe(let field, let value, let reason):
            return "refusing to export: Toolfile.lock's tool 'slipway' has \(field) '\(LaneNames.escaped(value))', which \(reason); "
                + "every job's install script would use it. Fix 'slipway' in the Toolfile and run 'slipway tools lock' again "
                + "(a Toolfile.lock from a checkout is not trusted)"
        case .conflictingSlipwayOptions:
            return "--slipway-setup and --slipway-on-path both say how jobs get slipway; pass one of them"
        case .slipwayLockUnreadable(let message):
            return message
        case .duplicatePipelineKey(let key, let path):
            return "refusing to write the pipeline: '\(key)' would appear twice in '\(path)'; rename the lane's input, "
                + "secret or step that produces it"
        }
    }
}

extension CIExportError: LocalizedError {
    public var errorDescription: String? { description }
}

import Foundation
