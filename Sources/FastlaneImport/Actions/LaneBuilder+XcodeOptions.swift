import Basics
import Xcode

/// What the xcode.* translators share: the project, the scheme, copied options, build settings.
extension LaneBuilder {
    /// The call with a Gymfile's or Scanfile's settings added where it does not set them.
    func withDefaults(_ call: RubyCall, from file: FastlaneSettings?) -> RubyCall {
        guard let file else { return call }
        var merged = call
        var seen = Set<String>()
        for entry in file.entries where call.argument(entry.name) == nil && seen.insert(entry.name).inserted {
            if let value = file.value(entry.name, lane: lane.name, platform: lane.platform) {
                merged.keywords.append(RubyPair(key: entry.name, value: value))
            }
        }
        return merged
    }

    /// The project or workspace options: the action's, else the surveyed container.
    mutating func container(_ call: RubyCall, _ statement: Fastfile.Statement) -> [DraftPair] {
        for key in ["workspace", "project"] {
            if let argument = call.argument(key), let path = value(argument, statement: statement) { return [DraftPair(key, path)] }
        }
        if let container = translator.survey.container {
            return [DraftPair(container.kind == .workspace ? "workspace" : "project", .string(container.path))]
        }
        draft.requireInput("project", "The .xcodeproj to build", default: nil)
        return [DraftPair("project", .string("${{ inputs.project }}"))]
    }

    /// The scheme: the action's, else the surveyed app (or test) scheme, else an input.
    mutating func scheme(_ call: RubyCall, _ statement: Fastfile.Statement, testing: Bool) -> DraftValue {
        if let argument = call.argument("scheme"), let scheme = value(argument, statement: statement) { return scheme }
        if let scheme = testing ? translator.survey.testScheme : translator.survey.appScheme { return .string(scheme.name) }
        draft.requireInput("scheme", "The scheme to build")
        return .string("${{ inputs.scheme }}")
    }

    /// Copies the arguments named in `map` (fastlane name → Slipway option) that the call has;
    /// one whose value only Ruby knows is listed. A single string for a list option becomes a
    /// list of one.
    mutating func carry(_ call: RubyCall, _ map: [String: String], into options: inout [DraftPair], _ statement: Fastfile.Statement,
                        lists: Set<String> = []) {
        for pair in call.keywords {
            guard let option = map[pair.key] else { continue }
            guard var converted = value(pair.value, statement: statement) else {
                if case .nil = pair.value { continue }
                skipArgument(call.name, pair.key, statement, "its value (\(Self.source(of: pair.value))) is only known when Ruby runs; give \(option) by hand")
                continue
            }
            if lists.contains(option), case .string = converted { converted = .list([converted]) }
            options.removeAll { $0.key == option }
            options.append(DraftPair(option, converted))
        }
    }

    /// Adds build settings to the options' `build-settings`, merging with those already there.
    static func addBuildSettings(_ settings: [DraftPair], to options: inout [DraftPair]) {
        guard !settings.isEmpty else { return }
        var merged: [DraftPair] = []
        if let index = options.firstIndex(where: { $0.key == "build-settings" }), case .map(let existing) = options[index].value {
            merged = existing
            options.remove(at: index)
        }
        for setting in settings {
            merged.removeAll { $0.key == setting.key }
            merged.append(setting)
        }
        options.append(DraftPair("build-settings", .map(merged)))
    }
}
