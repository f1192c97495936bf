import Steps

/// The declared types of the lane's step outputs, for checking an option whose whole value is
/// `${{ steps.ID.outputs.NAME }}` or `${{ steps.ID }}` before anything runs.
struct OutputTypes {
    /// The kind of each step, by step id.
    var kinds: [String: StepKind] = [:]

    /// Why `reference` cannot be the value of `option` (of type `type`), or nil when it can (or
    /// when only the run can tell: an output a step such as `run` or a plugin sets without
    /// declaring it is text, decoded for a list or mapping option when the step runs).
    func problem(giving reference: Reference, to type: OptionType, option: String) -> String? {
        guard let step = reference.step, let kind = kinds[step] else { return nil }   // unknown steps are reported elsewhere
        let owner = "step '\(step)' (\(kind.description.id))"
        switch reference {
        case .stepOutput(_, let output):
            guard let spec = kind.description.outputs.first(where: { $0.name == output }) else { return nil }
            if type.accepts(spec.type) { return nil }
            // Text into an int or bool option is converted when the step runs, as before.
            if !OptionChecker.isContainer(spec.type) && !OptionChecker.isContainer(type) { return nil }
            if OptionChecker.isScalarList(type) && !OptionChecker.isContainer(spec.type) { return nil }
            return "option '\(option)' expects \(type.phrase), but '\(reference)' is \(spec.type.phrase) (declared by \(owner))"
                + hint(for: type)
        case .step:
            guard case .map(let element) = type else {
                if type == .string { return nil }   // the outputs as JSON text
                return "option '\(option)' expects \(type.phrase), but '\(reference)' is a mapping of every output of \(owner); use 'steps.\(step).outputs.NAME' for one output"
            }
            let misfits = kind.description.outputs.filter { !element.accepts($0.type) }
            guard !misfits.isEmpty else { return nil }
            let list = misfits.map { "'\($0.name)' (\($0.type.phrase))" }.joined(separator: ", ")
            return "option '\(option)' expects \(type.phrase), but '\(reference)' holds every output of \(owner), and \(list) \(misfits.count == 1 ? "is" : "are") not \(element.phrase); pass the outputs one by one"
        default:
            return nil
        }
    }

    private func hint(for option: OptionType) -> String {
        switch option {
        case .map: return "; pass an output that is a mapping, or write the mapping in the lane file"
        case .list: return "; pass an output that is a list, or write the list in the lane file"
        default: return "; pass an output of that type"
        }
    }
}
