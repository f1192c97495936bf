import Basics
import YAMLSupport

/// `.slipway/lint.yml`: which rules run, at what severity, and which paths are ignored.
///
/// ```yaml
/// rules:
///   empty-group: off
///   unsorted-children: warning
/// ignore:
///   - Pods/**
/// ```
public struct LintConfiguration: Sendable, Hashable {
    /// Per-rule severity (nil: off) for rules the file names.
    public var severities: [String: LintSeverity?]
    /// Paths (relative to the project's folder, `*`/`**` wildcards) whose findings are dropped.
    public var ignore: [String]

    /// A configuration.
    public init(severities: [String: LintSeverity?] = [:], ignore: [String] = []) {
        self.severities = severities
        self.ignore = ignore
    }

    /// The severity `rule` runs at, or nil when it is off.
    public func severity(of rule: any LintRule) -> LintSeverity? {
        if let configured = severities[rule.id] { return configured }
        return rule.isOptIn ? nil : rule.defaultSeverity
    }

    /// The conventional place: `.slipway/lint.yml` under the repository or project folder.
    public static let defaultPath = ".slipway/lint.yml"

    /// Reads a configuration; `file` names it in errors.
    /// - Throws: `DiagnosticsError` with one diagnostic (file:line:col) per problem.
    public static func parse(_ text: String, file: String) throws -> LintConfiguration {
        let reader = YAMLReader(documents: "lint configurations", complexKeyMessage: "keys of a lint configuration must be plain names")
        guard let root = try reader.parse(text, file: file) else { return LintConfiguration() }
        guard case .mapping(let entries, _) = root else {
            throw DiagnosticsError([Diagnostic(at: root.location, "a lint configuration must be a mapping with 'rules' and 'ignore', not \(root.kindDescription)")])
        }
        var configuration = LintConfiguration()
        var problems: [Diagnostic] = []
        for entry in entries {
            switch entry.key.text {
            case "rules": readRules(entry.value, into: &configuration, problems: &problems)
            case "ignore": readIgnore(entry.value, into: &configuration, problems: &problems)
            default:
                problems.append(Diagnostic(at: entry.key.location,
                                           "unknown key '\(entry.key.text)'; a lint configuration has 'rules' and 'ignore'.\(Suggestions.didYouMean(entry.key.text, in: ["rules", "ignore"]))"))
            }
        }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        return configuration
    }

    private static func readRules(_ value: YAMLValue, into configuration: inout LintConfiguration, problems: inout [Diagnostic]) {
        guard case .mapping(let entries, _) = value else {
            problems.append(Diagnostic(at: value.location, "'rules' must map rule ids to off, note, warning or error, not \(value.kindDescription)"))
            return
        }
        for entry in entries {
            let id = entry.key.text
            guard LintRegistry.rule(id) != nil else {
                problems.append(Diagnostic(at: entry.key.location,
                                           "unknown rule '\(id)'; 'slipway xcodeproj lint --rules' lists them.\(Suggestions.didYouMean(id, in: LintRegistry.ids))"))
                continue
            }
            let text = entry.value.scalar?.text ?? ""
            if text == "off" || text == "false" {
                configuration.severities[id] = .some(nil)
            } else if let severity = LintSeverity(rawValue: text) {
                configuration.severities[id] = .some(severity)
            } else {
                let shown = entry.value.scalar == nil ? entry.value.kindDescription : "'\(text)'"
                problems.append(Diagnostic(at: entry.value.location,
                                           "rule '\(id)' is set to \(shown); use off, note, warning or error"))
            }
        }
    }

    private static func readIgnore(_ value: YAMLValue, into configuration: inout LintConfiguration, problems: inout [Diagnostic]) {
        guard case .sequence(let items, _) = value else {
            problems.append(Diagnostic(at: value.location, "'ignore' must be a list of paths, not \(value.kindDescription)"))
            return
        }
        for item in items {
            guard let scalar = item.scalar, !scalar.text.isEmpty else {
                problems.append(Diagnostic(at: item.location, "each 'ignore' entry must be a path, not \(item.kindDescription)"))
                continue
            }
            configuration.ignore.append(scalar.text)
        }
    }
}
