import Basics
import Steps
import YAMLSupport

/// A lane-level default for a step option, such as `tag-prefix: v` at the top of a lane file:
/// every step that has the option and does not set it gets this value. A step that sets a
/// different value is a validation error naming both places.
public struct LaneOptionDefault: Sendable {
    /// The option's name (`tag-prefix`), also the lane file's key.
    public var name: String
    /// The value as written.
    public var value: YAMLValue
    /// Where the key is written.
    public var location: SourceLocation

    /// The lane file keys that are option defaults.
    static let keys = ["tag-prefix"]
}

extension LaneFileParser {
    /// The default `entry` sets (a plain string: an expression there would be evaluated before
    /// any step ran, so it is refused); nil, with an error, when it is not one.
    mutating func optionDefault(_ entry: YAMLEntry) -> LaneOptionDefault? {
        guard let text = string(entry.value, what: "'\(entry.key.text)'") else { return nil }
        if text.contains("${{") {
            diagnostics.error("the lane's '\(entry.key.text)' must be a plain string, not an expression; "
                + "set an expression on the steps' own '\(entry.key.text)' option instead", at: entry.value.location)
            return nil
        }
        return LaneOptionDefault(name: entry.key.text, value: entry.value, location: entry.key.location)
    }
}

extension Lane {
    /// Gives every step the lane's option defaults (`StepInvocation.laneDefaults`).
    mutating func applyOptionDefaults() {
        guard !optionDefaults.isEmpty else { return }
        let defaults = optionDefaults
        func apply(_ nodes: inout [StepNode]) {
            for index in nodes.indices {
                switch nodes[index] {
                case .step(var step):
                    step.laneDefaults = defaults
                    nodes[index] = .step(step)
                case .parallel(var group):
                    for inner in group.steps.indices { group.steps[inner].laneDefaults = defaults }
                    nodes[index] = .parallel(group)
                }
            }
        }
        apply(&steps)
        apply(&finally)
    }
}

extension LaneValidator {
    /// An error at each option a step sets to a value other than the lane's default of it.
    /// Expressions are compared when the step runs (`StepOptionsBuilder`).
    static func checkLaneDefaults(_ invocation: StepInvocation, entries: [(name: String, value: YAMLValue, location: SourceLocation)],
                                  diagnostics: inout DiagnosticCollector) {
        for laneDefault in invocation.laneDefaults {
            guard let entry = entries.first(where: { $0.name == laneDefault.name }), let scalar = entry.value.scalar,
                  !scalar.text.contains("${{"), let wanted = laneDefault.value.scalar?.text, scalar.text != wanted else { continue }
            diagnostics.error(LaneOptionDefault.conflict(step: invocation, name: laneDefault.name, stepValue: scalar.text,
                                                         stepLocation: entry.location, laneDefault: laneDefault), at: entry.location)
        }
    }
}

extension LaneValidator {
    /// A warning at each lane-level default that no step of the lane takes (`tag-prefix:` in a
    /// lane without version.bump or changelog.update would otherwise do nothing without a word).
    static func checkLaneDefaultsAreUsed(_ lane: Lane, kinds: [String: StepKind], diagnostics: inout DiagnosticCollector) {
        for laneDefault in lane.optionDefaults {
            let takers = lane.allInvocations.filter { kinds[$0.id]?.description.option(named: laneDefault.name) != nil }
            guard takers.isEmpty, kinds.count == Set(lane.allInvocations.map(\.id)).count else { continue }
            diagnostics.warning("the lane's '\(laneDefault.name)' applies to no step: none of its steps has a '\(laneDefault.name)' option "
                + "(version.bump and changelog.update do); remove it or add such a step", at: laneDefault.location)
        }
    }
}

extension LaneOptionDefault {
    /// "step 'changelog' (changelog.update) sets tag-prefix 'release-' at lanes/release.yml:9:30, but the lane sets
    /// tag-prefix 'v' at lanes/release.yml:1:1; …".
    static func conflict(step: StepInvocation, name: String, stepValue: String, stepLocation: SourceLocation,
                         laneDefault: LaneOptionDefault) -> String {
        let laneValue = laneDefault.value.scalar?.text ?? ""
        let subject = step.displayName == step.kind ? "step '\(step.kind)'" : "step '\(step.displayName)' (\(step.kind))"
        return "\(subject) sets \(name) '\(stepValue)' at \(stepLocation), but the lane sets "
            + "\(name) '\(laneValue)' at \(laneDefault.location); steps of one lane must agree on it: remove the step's "
            + "\(name) to use the lane's, or change the lane's \(name)"
    }

    /// The options of `invocation` with the lane's defaults added where the step has the option
    /// and does not set it; throws when an expression the step sets evaluates to another value.
    static func apply(_ invocation: StepInvocation, description: StepDescription, to values: inout [String: OptionValue],
                      stepLocations: [String: SourceLocation], evaluate: (Template) throws -> ExpressionValue) throws {
        for laneDefault in invocation.laneDefaults {
            guard let spec = description.option(named: laneDefault.name) else { continue }
            let resolved = try OptionChecker.resolve(laneDefault.value, type: spec.type, option: laneDefault.name, evaluate: evaluate)
            guard let given = values[laneDefault.name] else {
                values[laneDefault.name] = resolved
                continue
            }
            if given != resolved, case .string(let text) = given {
                throw StepError.failed(conflict(step: invocation, name: laneDefault.name, stepValue: text,
                                                stepLocation: stepLocations[laneDefault.name] ?? invocation.location, laneDefault: laneDefault))
            }
        }
    }
}
