import Basics
import Steps
import YAMLSupport

extension LaneFileParser {
    mutating func stepList(_ value: YAMLValue, isFinally: Bool) -> [StepNode] {
        let section = isFinally ? "finally" : "steps"
        guard case .sequence(let items, _) = value else {
            if value.isNull && isFinally { return [] }
            diagnostics.error("'\(section)' must be a list of steps (each line starting with '- '), but it is \(value.kindDescription)", at: value.location)
            return []
        }
        if items.isEmpty && !isFinally { diagnostics.error("'steps' is empty; add at least one step", at: value.location) }
        return items.compactMap { item in
            if case .mapping(let entries, let location) = item, entries.contains(where: { $0.key.text == "parallel" }) {
                return parallelGroup(entries, at: location, isFinally: isFinally).map(StepNode.parallel)
            }
            return invocation(item, isFinally: isFinally).map(StepNode.step)
        }
    }

    private mutating func parallelGroup(_ entries: [YAMLEntry], at location: SourceLocation, isFinally: Bool) -> ParallelGroup? {
        checkKeys(entries, allowed: ["parallel", "name"], context: "a parallel group")
        var group = ParallelGroup(name: nil, steps: [], location: location)
        for entry in entries {
            if entry.key.text == "name" { group.name = string(entry.value, what: "'name'") }
            guard entry.key.text == "parallel" else { continue }
            guard case .sequence(let items, _) = entry.value, !items.isEmpty else {
                diagnostics.error("'parallel' must be a non-empty list of steps", at: entry.value.location)
                return nil
            }
            for item in items {
                if case .mapping(let inner, _) = item, inner.contains(where: { $0.key.text == "parallel" }) {
                    diagnostics.error("parallel groups cannot be nested; list the steps in one group", at: item.location)
                    continue
                }
                if let step = invocation(item, isFinally: isFinally) { group.steps.append(step) }
            }
        }
        return group
    }

    /// `- kind`, `- kind: options` (+ step keys), or `- kind: scalar` (the primary option).
    private mutating func invocation(_ item: YAMLValue, isFinally: Bool) -> StepInvocation? {
        var step = StepInvocation(id: "", hasExplicitID: false, kind: "", kindLocation: item.location, name: nil,
                                  options: nil, condition: nil, timeout: nil, retry: .none, continueOnError: false,
                                  env: [], workingDirectory: nil, isFinally: isFinally, location: item.location)
        switch item {
        case .scalar(let scalar):
            guard case .string(let kind) = scalar.resolved else {
                diagnostics.error("a step must be a step name or a mapping, but this is \(item.kindDescription)", at: item.location)
                return nil
            }
            step.kind = kind
            checkKind(step)
            return step
        case .sequence:
            diagnostics.error("a step must be a step name or a mapping, but this is a list", at: item.location)
            return nil
        case .mapping(let entries, _):
            let kindEntries = entries.filter { !Self.stepKeys.contains($0.key.text) }
            guard kindEntries.count == 1, let kindEntry = kindEntries.first else {
                if kindEntries.isEmpty {
                    diagnostics.error("this step names no step kind; write '- KIND: { options }' (run 'slipway steps' for the list)", at: item.location)
                } else {
                    let names = kindEntries.map { "'\($0.key.text)'" }.joined(separator: ", ")
                    diagnostics.error("a step entry names one step kind, but this one has \(names); start a new '- ' entry for each step, or check the indentation", at: kindEntries[1].key.location)
                }
                return nil
            }
            step.kind = kindEntry.key.text
            step.kindLocation = kindEntry.key.location
            checkKind(step)
            step.options = kindEntry.value.isNull ? nil : kindEntry.value
            for entry in entries where entry.key.text != kindEntry.key.text {
                stepKey(entry, into: &step)
            }
            return step
        }
    }

    /// A kind names a built-in step or a plugin executable `slipway-step-KIND`, and is the
    /// step's id when it has none: it follows the step id grammar.
    private mutating func checkKind(_ step: StepInvocation) {
        guard !LaneNames.isStepID(step.kind) else { return }
        diagnostics.error("step kind '\(LaneNames.escaped(step.kind))' may only use ASCII letters, digits, '_', '-' and '.', "
            + "starting with a letter, a digit or '_' (run 'slipway steps' for the list)", at: step.kindLocation)
    }

    private mutating func stepKey(_ entry: YAMLEntry, into step: inout StepInvocation) {
        let value = entry.value
        switch entry.key.text {
        case "id":
            guard let id = string(value, what: "'id'") else { return }
            if !LaneNames.isStepID(id) || id.contains(".outputs.") {
                diagnostics.error("step id '\(LaneNames.escaped(id))' may only use ASCII letters, digits, '_', '-' and '.', "
                    + "starting with a letter, a digit or '_'", at: value.location)
            }
            step.id = id
            step.hasExplicitID = true
        case "name": step.name = oneLine(value, what: "step name")
        case "if": step.condition = template(value, what: "'if'", condition: true)
        case "timeout": step.timeout = duration(value, what: "'timeout'")
        case "retry": step.retry = retry(value) ?? .none
        case "continue-on-error": step.continueOnError = bool(value, what: "'continue-on-error'") ?? false
        case "env": step.env = environment(value)
        case "working-directory": step.workingDirectory = template(value, what: "'working-directory'")
        case "runs-on":
            guard let label = string(value, what: "'runs-on'") else { return }
            if label.isEmpty || label.contains("${{") || label.contains(where: \.isWhitespace) {
                diagnostics.error("'runs-on' must be linux, macos, or a runner label without spaces or expressions, not '\(label)'",
                                  at: value.location)
            }
            step.runsOn = label
        case "artifacts": step.artifacts = artifactPatterns(value)
        default: break
        }
    }

    /// `artifacts:`: a pattern or a list of them, relative to the project (`*`, `**`, `?`).
    private mutating func artifactPatterns(_ value: YAMLValue) -> [String] {
        let items: [YAMLValue]
        if case .sequence(let list, _) = value { items = list } else { items = [value] }
        var patterns: [String] = []
        for item in items {
            guard let pattern = oneLine(item, what: "an 'artifacts' entry") else { continue }
            if pattern.isEmpty || pattern.hasPrefix("/") || pattern.hasPrefix("-") || pattern.split(separator: "/").contains("..")
                || pattern.contains("${{") {
                diagnostics.error("artifact pattern '\(pattern)' must be a path or glob inside the project (no leading '/' or '-', "
                    + "no '..', no expressions), e.g. build/*.ipa", at: item.location)
                continue
            }
            patterns.append(pattern)
        }
        if items.isEmpty { diagnostics.error("'artifacts' is empty; list the files the step produces", at: value.location) }
        return patterns
    }

    private mutating func retry(_ value: YAMLValue) -> RetryPolicy? {
        if case .int(let count)? = value.scalar?.resolved {
            guard count >= 0 && count <= 100 else {
                diagnostics.error("'retry' must be between 0 and 100", at: value.location)
                return nil
            }
            return RetryPolicy(retries: count, delay: .seconds(1), factor: 2)
        }
        guard case .mapping(let fields, _) = value else {
            diagnostics.error("'retry' must be a number of retries or a mapping {attempts, delay, backoff}, but it is \(value.kindDescription)", at: value.location)
            return nil
        }
        checkKeys(fields, allowed: ["attempts", "delay", "backoff"], context: "'retry'")
        var policy = RetryPolicy(retries: 0, delay: .seconds(1), factor: 2)
        for field in fields {
            switch field.key.text {
            case "attempts":
                guard case .int(let attempts)? = field.value.scalar?.resolved, attempts >= 1, attempts <= 101 else {
                    diagnostics.error("'attempts' must be a whole number from 1 to 101 (the first try included)", at: field.value.location)
                    continue
                }
                policy.retries = attempts - 1
            case "delay": policy.delay = duration(field.value, what: "'delay'") ?? policy.delay
            case "backoff":
                guard let text = field.value.scalar?.text, let factor = Double(text), factor >= 1 else {
                    diagnostics.error("'backoff' must be a number of at least 1 (the factor between waits)", at: field.value.location)
                    continue
                }
                policy.factor = factor
            default: break
            }
        }
        return policy
    }

    /// Gives every step an id: explicit ids stay (duplicates are errors); others get their kind,
    /// numbered from the second use on (`run`, `run-2`, ...).
    mutating func assignIDs(_ lane: inout Lane) {
        var explicit: [String: SourceLocation] = [:]
        for step in lane.allInvocations where step.hasExplicitID {
            if let first = explicit[step.id] {
                diagnostics.error("duplicate step id '\(step.id)' (first used at \(first.line):\(first.column)); step ids must be unique", at: step.location)
            } else {
                explicit[step.id] = step.location
            }
        }
        var used = Set(explicit.keys)
        func name(_ step: inout StepInvocation) {
            guard !step.hasExplicitID else { return }
            var candidate = step.kind, number = 2
            while used.contains(candidate) { candidate = "\(step.kind)-\(number)"; number += 1 }
            used.insert(candidate)
            step.id = candidate
        }
        func rename(_ nodes: inout [StepNode]) {
            for index in nodes.indices {
                switch nodes[index] {
                case .step(var step): name(&step); nodes[index] = .step(step)
                case .parallel(var group):
                    for inner in group.steps.indices { name(&group.steps[inner]) }
                    nodes[index] = .parallel(group)
                }
            }
        }
        rename(&lane.steps)
        rename(&lane.finally)
    }
}
