import Basics
import Steps
import YAMLSupport

extension LaneValidator {
    /// Checks the description's `OptionRule`s against the options the lane gives: which are
    /// given, and the literal values (expressions count as given, value unknown). Each broken
    /// rule is reported at the option it names, or at the step.
    static func checkRules(_ invocation: StepInvocation, description: StepDescription,
                           entries: [(name: String, value: YAMLValue, location: SourceLocation)],
                           diagnostics: inout DiagnosticCollector) {
        guard !description.rules.isEmpty else { return }
        var given: [String: OptionValue?] = [:]
        var locations: [String: SourceLocation] = [:]
        for entry in entries where given[entry.name] == nil {
            locations[entry.name] = entry.location
            guard let scalar = entry.value.scalar else { given[entry.name] = .some(.list([])); continue }
            if scalar.text.contains("${{") { given[entry.name] = .some(nil); continue }
            switch scalar.resolved {
            case .null: given[entry.name] = .some(.null)
            default: given[entry.name] = .some(.string(scalar.text))
            }
        }
        for rule in description.rules {
            guard let problem = rule.problem(given: given) else { continue }
            let location: SourceLocation
            if case .invalidOption(let name, _) = problem, let at = locations[name] { location = at } else { location = invocation.kindLocation }
            diagnostics.error("step '\(invocation.displayName)' (\(invocation.kind)): \(problem.localizedDescription)", at: location)
        }
    }
}
