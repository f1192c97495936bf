import Basics
import Steps
import YAMLSupport

/// Turns a lane file's text into a `Lane`, collecting every structural problem (unknown keys,
/// wrong types, bad expressions, duplicate ids) with its line and column.
public struct LaneFileParser {
    static let topLevelKeys = ["description", "inputs", "secrets", "env", "requires", "ci-jobs", "steps", "finally"] + LaneOptionDefault.keys
    static let stepKeys = ["id", "name", "if", "timeout", "retry", "continue-on-error", "env", "working-directory", "runs-on", "artifacts"]
    /// The YAML reader, with the wording of lane files.
    static let yamlReader = YAMLReader(documents: "lane files",
                                       complexKeyMessage: "a mapping key must be a plain name, not a list or mapping")

    var diagnostics = DiagnosticCollector()
    let file: String

    /// Parses `text` as the lane `name`; `file` is how the file is shown in messages.
    /// Throws `DiagnosticsError` with every problem found.
    public static func parse(_ text: String, name: String, file: String) throws -> Lane {
        var parser = LaneFileParser(file: file)
        guard let root = try yamlReader.parse(text, file: file) else {
            throw DiagnosticsError([Diagnostic(at: SourceLocation(file: file, line: 1, column: 1),
                "the lane file is empty; it needs at least 'steps:' (run 'slipway init' for an example)")])
        }
        let lane = parser.lane(from: root, name: name)
        try parser.diagnostics.throwIfErrors()
        return lane
    }

    mutating func lane(from root: YAMLValue, name: String) -> Lane {
        var lane = Lane(name: name, file: file, description: nil, inputs: [], secrets: [], env: [], steps: [], finally: [])
        guard case .mapping(let entries, _) = root else {
            diagnostics.error("a lane file must be a mapping with 'steps:' (and optionally description, inputs, secrets, env, finally), but this is \(root.kindDescription)", at: root.location)
            return lane
        }
        checkKeys(entries, allowed: Self.topLevelKeys, context: "lane file")
        var sawSteps = false
        for entry in entries {
            switch entry.key.text {
            case "description": lane.description = string(entry.value, what: "'description'")
            case "inputs": lane.inputs = inputs(entry.value)
            case "secrets": lane.secrets = secrets(entry.value)
            case "env": lane.env = environment(entry.value)
            case "requires": lane.requires = requires(entry.value)
            case "ci-jobs":
                if let text = string(entry.value, what: "'ci-jobs'") {
                    if let layout = CIJobLayout(rawValue: text) {
                        lane.ciJobs = layout
                    } else {
                        diagnostics.error("'ci-jobs' must be \(CIJobLayout.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")), not '\(LaneNames.escaped(text))'", at: entry.value.location)
                    }
                }
            case "steps": sawSteps = true; lane.steps = stepList(entry.value, isFinally: false)
            case "finally": lane.finally = stepList(entry.value, isFinally: true)
            case _ where LaneOptionDefault.keys.contains(entry.key.text):
                if let value = optionDefault(entry) { lane.optionDefaults.append(value) }
            default: break
            }
        }
        if !sawSteps { diagnostics.error("the lane has no 'steps:'; add a list of steps", at: root.location) }
        assignIDs(&lane)
        lane.applyOptionDefaults()
        return lane
    }

    // MARK: - Keys and scalars

    mutating func checkKeys(_ entries: [YAMLEntry], allowed: [String], context: String) {
        var seen = Set<String>()
        for entry in entries {
            if !seen.insert(entry.key.text).inserted {
                diagnostics.error("duplicate key '\(entry.key.text)' in \(context)", at: entry.key.location)
            }
            if !allowed.contains(entry.key.text) {
                let hint = Suggestions.didYouMean(entry.key.text, in: allowed)
                diagnostics.error("unknown key '\(entry.key.text)' in \(context).\(hint) Allowed: \(allowed.joined(separator: ", "))", at: entry.key.location)
            }
        }
    }

    mutating func string(_ value: YAMLValue, what: String) -> String? {
        guard let scalar = value.scalar, scalar.resolved != .null else {
            diagnostics.error("\(what) must be a string, but it is \(value.kindDescription)", at: value.location)
            return nil
        }
        return scalar.text
    }

    /// `string`, refused (nil, with an error at `value`) when it has a character that would break
    /// its line in an exported pipeline (`LaneNames.controlCharacter`).
    mutating func oneLine(_ value: YAMLValue, what: String) -> String? {
        guard let text = string(value, what: what) else { return nil }
        guard checkOneLine(text, what: what, at: value.location) else { return nil }
        return text
    }

    /// False (with an error at `location`) when `text` has a control character; the text is
    /// not quoted in the message, so that it cannot add lines to the output.
    mutating func checkOneLine(_ text: String, what: String, at location: SourceLocation) -> Bool {
        guard let control = LaneNames.controlCharacter(in: text) else { return true }
        diagnostics.error("\(what) contains the control character \(LaneNames.describe(control)); write it on one line, "
            + "without tabs or other control characters (it is copied into CI pipelines)", at: location)
        return false
    }

    mutating func bool(_ value: YAMLValue, what: String) -> Bool? {
        guard case .bool(let flag)? = value.scalar?.resolved else {
            diagnostics.error("\(what) must be true or false, but it is \(value.kindDescription)", at: value.location)
            return nil
        }
        return flag
    }

    mutating func template(_ value: YAMLValue, what: String, condition: Bool = false) -> Template? {
        guard let scalar = value.scalar, scalar.resolved != .null else {
            diagnostics.error("\(what) must be a string, but it is \(value.kindDescription)", at: value.location)
            return nil
        }
        let location = scalar.contentLocation
        let result = condition ? Template.parseCondition(scalar.text, at: location) : Template.parse(scalar.text, at: location)
        switch result {
        case .success(let template): return template
        case .failure(let error): diagnostics.append(contentsOf: error.diagnostics); return nil
        }
    }

    mutating func duration(_ value: YAMLValue, what: String) -> Duration? {
        if case .int(let seconds)? = value.scalar?.resolved, seconds >= 0 { return .seconds(seconds) }
        if let scalar = value.scalar, let parsed = DurationParser.parse(scalar.text) { return parsed }
        diagnostics.error("\(what) must be a duration such as 30s, 5m or 1h, but it is '\(value.scalar?.text ?? value.kindDescription)'", at: value.location)
        return nil
    }

    // MARK: - Sections

    mutating func environment(_ value: YAMLValue) -> [EnvironmentEntry] {
        guard case .mapping(let entries, _) = value else {
            if !value.isNull { diagnostics.error("'env' must be a mapping of NAME: value, but it is \(value.kindDescription)", at: value.location) }
            return []
        }
        var seen = Set<String>()
        return entries.compactMap { entry in
            if !seen.insert(entry.key.text).inserted {
                diagnostics.error("duplicate variable '\(entry.key.text)' in 'env'", at: entry.key.location)
            }
            guard let template = template(entry.value, what: "env '\(entry.key.text)'") else { return nil }
            return EnvironmentEntry(name: entry.key.text, value: template)
        }
    }

    mutating func requires(_ value: YAMLValue) -> [String] {
        guard case .sequence(let items, _) = value else {
            if !value.isNull { diagnostics.error("'requires' must be a list of tool names from the Toolfile, but it is \(value.kindDescription)", at: value.location) }
            return []
        }
        var names: [String] = []
        for item in items {
            guard let name = string(item, what: "a required tool's name") else { continue }
            if names.contains(name) { diagnostics.warning("tool '\(name)' is listed twice in 'requires'", at: item.location) } else { names.append(name) }
        }
        return names
    }

    mutating func secrets(_ value: YAMLValue) -> [SecretSpec] {
        switch value {
        case .sequence(let items, _):
            return items.compactMap { item in
                guard let name = string(item, what: "a secret's name") else { return nil }
                checkSecretName(name, at: item.location)
                return SecretSpec(name: name, description: nil, isRequired: true, location: item.location)
            }
        case .mapping(let entries, _):
            return entries.map { entry in
                checkSecretName(entry.key.text, at: entry.key.location)
                var spec = SecretSpec(name: entry.key.text, description: nil, isRequired: true, location: entry.key.location)
                if case .mapping(let fields, _) = entry.value {
                    checkKeys(fields, allowed: ["description", "required"], context: "secret '\(entry.key.text)'")
                    for field in fields {
                        if field.key.text == "description" { spec.description = string(field.value, what: "'description'") }
                        if field.key.text == "required" { spec.isRequired = bool(field.value, what: "'required'") ?? true }
                    }
                } else if !entry.value.isNull {
                    diagnostics.error("secret '\(entry.key.text)' must be a mapping (description, required) or empty", at: entry.value.location)
                }
                return spec
            }
        default:
            if !value.isNull { diagnostics.error("'secrets' must be a list of names, but it is \(value.kindDescription)", at: value.location) }
            return []
        }
    }

    private mutating func checkSecretName(_ name: String, at location: SourceLocation) {
        guard !LaneNames.isSecretName(name) else { return }
        diagnostics.error("secret name '\(LaneNames.escaped(name))' must be an environment variable name: ASCII letters, digits "
            + "and '_', not starting with a digit (its value is read from the variable of that name)", at: location)
    }
}
