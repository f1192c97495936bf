import Basics
import Steps
import YAMLSupport

/// A lane as written in `lanes/NAME.yml`, structurally checked (step kinds and options are
/// checked later by `LaneValidator`, which needs the step registry).
public struct Lane: Sendable {
    /// The lane's name: the file's base name.
    public var name: String
    /// The file, as shown in messages (relative to the project when possible).
    public var file: String
    /// What the lane is for.
    public var description: String?
    /// Declared inputs, in file order.
    public var inputs: [InputSpec]
    /// Declared secrets, in file order.
    public var secrets: [SecretSpec]
    /// Lane-wide environment variables (values may hold expressions).
    public var env: [EnvironmentEntry]
    /// Pinned tools (from the Toolfile) that must be installed and verified before step one.
    public var requires: [String] = []
    /// How `slipway ci export` lays the steps out as jobs (`ci-jobs:`).
    public var ciJobs: CIJobLayout = .perRunner
    /// The steps.
    public var steps: [StepNode]
    /// Steps that run after the others, whatever happened (`if: always()` by default).
    public var finally: [StepNode]
    /// Lane-level option defaults (`tag-prefix:`), also copied into each step's `laneDefaults`.
    public var optionDefaults: [LaneOptionDefault] = []

    /// Every step invocation, main steps then `finally` steps, parallel groups flattened.
    public var allInvocations: [StepInvocation] {
        (steps + finally).flatMap(\.invocations)
    }

    /// How many step invocations the lane has, main and `finally` counted apart (what
    /// `slipway lanes` and `slipway validate` print).
    public var stepCount: StepCount {
        StepCount(steps: steps.flatMap(\.invocations).count, finally: finally.flatMap(\.invocations).count)
    }
}

/// A lane's step invocations (parallel groups flattened): the main steps and the `finally` ones.
public struct StepCount: Sendable, Hashable, CustomStringConvertible {
    /// Main steps.
    public var steps: Int
    /// `finally` steps.
    public var finally: Int

    /// Counts `steps` main and `finally` finally steps.
    public init(steps: Int, finally: Int) {
        self.steps = steps
        self.finally = finally
    }

    /// "2 steps + 1 finally", or "1 step" when there is no `finally`.
    public var description: String {
        let main = "\(steps) step\(steps == 1 ? "" : "s")"
        return finally == 0 ? main : "\(main) + \(finally) finally"
    }
}

/// A declared input.
public struct InputSpec: Sendable, Hashable {
    /// The value types inputs can have.
    public enum ValueType: String, Sendable, Hashable, CaseIterable {
        case string, int, bool
    }

    public var name: String
    public var type: ValueType
    public var defaultValue: YAMLScalar.ScalarValue?
    public var choices: [String]?
    /// Required inputs have no default and must be given with `--input NAME=VALUE`.
    public var isRequired: Bool
    public var description: String?
    public var location: SourceLocation
}

/// A declared secret: its value comes from the environment variable of the same name.
public struct SecretSpec: Sendable, Hashable {
    public var name: String
    public var description: String?
    /// When false, a missing variable is allowed (its value is empty).
    public var isRequired: Bool
    public var location: SourceLocation
}

/// `NAME: value` in an `env:` mapping.
public struct EnvironmentEntry: Sendable, Hashable {
    public var name: String
    public var value: Template
}

/// An entry of `steps:` or `finally:`.
public enum StepNode: Sendable {
    case step(StepInvocation)
    case parallel(ParallelGroup)

    /// The invocations in this node.
    public var invocations: [StepInvocation] {
        switch self {
        case .step(let invocation): return [invocation]
        case .parallel(let group): return group.steps
        }
    }
}

/// `- parallel: [...]`: steps that run at the same time.
public struct ParallelGroup: Sendable {
    public var name: String?
    public var steps: [StepInvocation]
    public var location: SourceLocation
}

/// One use of a step in a lane.
public struct StepInvocation: Sendable {
    /// The id: explicit (`id:`) or derived from the kind (`swift.test`, `swift.test-2`, ...).
    public var id: String
    /// Whether `id:` was written.
    public var hasExplicitID: Bool
    /// The step kind, e.g. `swift.build` or a plugin's name.
    public var kind: String
    /// Where the kind is written.
    public var kindLocation: SourceLocation
    /// A display name (`name:`), or nil.
    public var name: String?
    /// The options as written: nil, a scalar (the primary option) or a mapping.
    public var options: YAMLValue?
    /// `if:`; nil means `success()` (or `always()` in `finally`).
    public var condition: Template?
    /// `timeout:`.
    public var timeout: Duration?
    /// `retry:`.
    public var retry: RetryPolicy
    /// `continue-on-error:`.
    public var continueOnError: Bool
    /// `env:`.
    public var env: [EnvironmentEntry]
    /// `working-directory:`.
    public var workingDirectory: Template?
    /// Whether this step is in `finally:`.
    public var isFinally: Bool
    /// Where the entry starts.
    public var location: SourceLocation
    /// `runs-on:`: the runner a CI export puts the step on (`linux`, `macos` or a label); nil
    /// picks one from the step's platforms.
    public var runsOn: String?
    /// `artifacts:`: the files (globs, relative to the project) the step produces, handed to
    /// later jobs by a CI export.
    public var artifacts: [String] = []
    /// The lane's option defaults (`Lane.optionDefaults`): used for the options the step has
    /// and does not set.
    public var laneDefaults: [LaneOptionDefault] = []

    /// The name shown in output: `name:` or the id.
    public var displayName: String { name ?? id }
}

/// How often and how patiently a failed step is tried again.
public struct RetryPolicy: Sendable, Hashable {
    /// Extra attempts after the first.
    public var retries: Int
    /// The wait before the first retry; each further wait is multiplied by `factor`.
    public var delay: Duration
    /// The backoff factor.
    public var factor: Double

    /// No retries.
    public static let none = RetryPolicy(retries: 0, delay: .seconds(1), factor: 2)

    /// The wait before retry number `attempt` (1-based).
    public func delay(beforeRetry attempt: Int) -> Duration {
        delay * pow(factor, Double(max(0, attempt - 1)))
    }
}

import Foundation

/// How `slipway ci export` turns a lane's steps into CI jobs (the lane's `ci-jobs:` key).
public enum CIJobLayout: String, Sendable, Hashable, CaseIterable {
    /// One job per run of consecutive steps that can share a runner kind (the default): steps
    /// that share machine state (installed signing, build folders, uncommitted changes) stay
    /// on one machine.
    case perRunner = "per-runner"
    /// One job per step (and per member of a parallel group).
    case perStep = "per-step"
}
