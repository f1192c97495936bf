/// Renders step descriptions as the text of `slipway steps` and `slipway step NAME`.
public enum StepDocumentation {
    /// One line per step: id and summary, aligned.
    public static func list(_ kinds: [StepKind]) -> String {
        let width = kinds.map(\.description.id.count).max() ?? 0
        return kinds.map { kind in
            let id = kind.description.id.padding(toLength: width, withPad: " ", startingAt: 0)
            let origin = kind.origin == .builtIn ? "" : "  (plugin)"
            return "  \(id)  \(kind.description.summary)\(origin)"
        }.joined(separator: "\n")
    }

    /// The full page of one step: summary, discussion, options, outputs, platforms, examples.
    public static func page(_ kind: StepKind) -> String {
        let description = kind.description
        var lines = ["\(description.id) — \(description.summary)"]
        if case .plugin(let executable) = kind.origin { lines.append("Plugin: \(executable)") }
        if !description.discussion.isEmpty { lines += ["", description.discussion] }
        lines += ["", "OPTIONS:"]
        if description.options.isEmpty { lines.append("  (none)") }
        for option in description.options {
            var detail = "\(option.type)"
            if option.isRequired { detail += ", required" }
            if let value = option.defaultValue { detail += ", default: \(value)" }
            lines.append("  \(option.name) (\(detail))")
            lines.append("      \(option.summary)")
        }
        lines += ["", "OUTPUTS:"]
        if description.outputs.isEmpty && !description.hasDynamicOutputs { lines.append("  (none)") }
        for output in description.outputs {
            let type = output.type == .string ? "" : " (\(output.type))"
            lines.append("  \(output.name)\(type): \(output.summary)")
        }
        if description.hasDynamicOutputs { lines.append("  (and any name the step writes; see above)") }
        let platforms = description.platforms.map(\.rawValue).sorted().joined(separator: ", ")
        lines += ["", "PLATFORMS: \(platforms)"]
        lines += ["", "STEP KEYS (every step): id, name, if, timeout, retry, continue-on-error, env, working-directory"]
        if !description.examples.isEmpty { lines += ["", "EXAMPLES:"] }
        for example in description.examples {
            lines.append("  # \(example.title)")
            lines += example.yaml.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}
