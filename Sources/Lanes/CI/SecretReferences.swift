import YAMLSupport

/// The secrets a step refers to (`${{ secrets.X }}` in its options, `env`, `if` and
/// `working-directory`): the ones its CI job is given, and no others, and the ones `run --only`
/// requires.
public enum SecretReferences {
    /// The secrets `invocation` refers to.
    public static func `in`(_ invocation: StepInvocation) -> Set<String> {
        var templates = invocation.env.map(\.value)
        if let condition = invocation.condition { templates.append(condition) }
        if let directory = invocation.workingDirectory { templates.append(directory) }
        var names = secrets(in: templates)
        if let options = invocation.options { collect(options, into: &names) }
        return names
    }

    /// The secrets the lane's own `env:` refers to: every job needs them, since every step
    /// gets the lane's environment.
    public static func inLaneEnvironment(_ lane: Lane) -> Set<String> {
        secrets(in: lane.env.map(\.value))
    }

    private static func secrets(in templates: [Template]) -> Set<String> {
        var names = Set<String>()
        for template in templates {
            for case .secret(let name) in template.references { names.insert(name) }
        }
        return names
    }

    private static func collect(_ value: YAMLValue, into names: inout Set<String>) {
        switch value {
        case .scalar(let scalar):
            guard scalar.text.contains("${{"), case .success(let template) = Template.parse(scalar.text, at: scalar.location) else { return }
            names.formUnion(secrets(in: [template]))
        case .sequence(let items, _):
            for item in items { collect(item, into: &names) }
        case .mapping(let entries, _):
            for entry in entries { collect(entry.value, into: &names) }
        }
    }
}
