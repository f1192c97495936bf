import Basics

/// What a step does once its options are known: describe its effects (for `--dry-run` and
/// preflight) or do them. Built-in steps and external plugins both end up as a `StepAction`,
/// so the runner cannot tell them apart.
public protocol StepAction: Sendable {
    /// What running the step would do, without doing any of it.
    func plan(in context: StepContext) async throws -> [Effect]
    /// Does the step's work and returns its outputs. Throws `StepError` (or any error, which
    /// the runner reports with the step's name) when it fails.
    func run(in context: StepContext) async throws -> StepOutputs
    /// The read-only checks a dry run makes after `plan(in:)`: throws what `run(in:)` would fail
    /// with, found without changing anything (a dirty tree for `git.ensure-clean`, a scheme the
    /// project lacks). It reads, never writes, and never runs a process or touches the network
    /// beyond a cheap read. Default: no check.
    func check(in context: StepContext) async throws
}

extension StepAction {
    /// No read-only check: the dry run shows the plan only.
    public func check(in context: StepContext) async throws {}
}

/// A built-in step: a small type with a static description and typed options
/// (see `Sources/Steps/BuiltIn`). Register new ones in `StepRegistry.builtIns`.
public protocol Step: StepAction {
    /// The step's id, summary, options, outputs, examples and platforms.
    static var description: StepDescription { get }
    /// Checks the validated options (everything that needs no side effects) and keeps them.
    init(options: StepOptions) throws
}

/// A step whose literal options can be checked against the project on disk (a scheme that
/// exists, a workspace that is there) when the lane is validated, before any step runs. The
/// check reads and never writes.
public protocol ProjectCheckedStep: StepAction {
    /// Throws `StepError.invalidOption` (or any error, shown at the step) when the options do not
    /// fit the project in `projectDirectory`.
    func checkProject(in projectDirectory: String, fileSystem: any FileSystem) throws
    /// What the lane's check should say about the project without refusing it (CocoaPods not
    /// installed yet), as notes; the same note from several steps is said once.
    func projectNotes(in projectDirectory: String, fileSystem: any FileSystem) -> [String]
}

extension ProjectCheckedStep {
    /// No notes.
    public func projectNotes(in projectDirectory: String, fileSystem: any FileSystem) -> [String] { [] }
}

/// The outputs a step hands to later steps (`${{ steps.ID.outputs.NAME }}`).
public typealias StepOutputs = [String: String]

/// One kind of step as the runner sees it: its description, and how to make an action from
/// options. Built from a `Step` type or from an external plugin's self-description.
public struct StepKind: Sendable {
    /// Where a kind comes from.
    public enum Origin: Sendable, Hashable {
        case builtIn
        case plugin(executable: String)
    }

    /// The description (id, options, outputs, ...).
    public let description: StepDescription
    /// Where it comes from.
    public let origin: Origin
    private let factory: @Sendable (StepOptions) throws -> any StepAction

    /// A kind from a factory.
    public init(description: StepDescription, origin: Origin,
                factory: @escaping @Sendable (StepOptions) throws -> any StepAction) {
        self.description = description
        self.origin = origin
        self.factory = factory
    }

    /// A kind for a built-in step type.
    public init<S: Step>(_ type: S.Type) {
        self.init(description: S.description, origin: .builtIn) { try S(options: $0) }
    }

    /// An action for these options; throws what the step's initializer throws.
    public func makeAction(options: StepOptions) throws -> any StepAction {
        try factory(options)
    }
}

/// One thing a step would do, as printed by `--dry-run`.
public struct Effect: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The broad kind of effect, for readers that filter (e.g. "what would touch the network").
    public enum Kind: String, Sendable, Hashable, Codable {
        case process, write, delete, git, network, check, other
    }

    /// The kind.
    public var kind: Kind
    /// A one-line description, e.g. "run: swift build -c release".
    public var summary: String

    /// Creates an effect.
    public init(_ kind: Kind, _ summary: String) {
        self.kind = kind
        self.summary = summary
    }

    public var description: String { "\(kind.rawValue): \(summary)" }
}
