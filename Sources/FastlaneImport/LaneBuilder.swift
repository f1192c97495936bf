import Basics
import Xcode

/// Builds one Slipway lane from one fastlane lane: walks its statements (with `before_all` first
/// and private lanes inlined where they are called), translates each known action into steps,
/// and lists the rest.
struct LaneBuilder {
    let translator: FastlaneTranslator
    let lane: Fastfile.Lane
    private(set) var output: FastlaneTranslation.Lane
    /// Lanes being inlined, against recursion.
    private var inlining: Set<String> = []
    /// Ruby variables bound to values a step makes (`log = changelog_from_git_commits`).
    var bindings: [String: Binding] = [:]

    /// What a Ruby variable stands for.
    enum Binding: Hashable {
        /// A value that can be written in the lane.
        case value(DraftValue)
        /// The changelog text `changelog_from_git_commits` returned: in Slipway it is the
        /// CHANGELOG.md entry that changelog.update wrote.
        case changelog
    }

    init(translator: FastlaneTranslator, name: String, lane: Fastfile.Lane) {
        self.translator = translator
        self.lane = lane
        let source = (lane.platform.map { $0 + " " } ?? "") + lane.name
        var draft = LaneDraft(name: name, description: lane.description ?? "Translated from fastlane's '\(source)' lane")
        draft.header = [
            "Translated by 'slipway init --from-fastlane' from the lane '\(source)' in \(translator.fastfile.path):\(lane.line).",
            "Check it with 'slipway validate \(name) --platform macos'; what was not translated is listed",
            "at the end of this file and was printed by init.",
        ]
        output = FastlaneTranslation.Lane(draft: draft, source: source, translated: [], differences: [], untranslated: [])
    }

    var path: String { translator.fastfile.path }
    var draft: LaneDraft {
        get { output.draft }
        set { output.draft = newValue }
    }

    mutating func run() {
        inlining.insert(lane.name)
        walk(translator.fastfile.beforeAll)
        walk(lane.statements)
        if !output.untranslated.isEmpty {
            output.draft.footer = ["Not translated (see 'slipway init --from-fastlane' output):"]
                + output.untranslated.map { "  \($0.location) \($0.what): \($0.reason)" }
        }
    }

    private mutating func walk(_ statements: [Fastfile.Statement]) {
        for statement in statements {
            switch statement.kind {
            case .compound(let keyword):
                let lines = statement.line == statement.endLine ? "line \(statement.line)" : "lines \(statement.line)-\(statement.endLine)"
                skip(statement, "a Ruby '\(keyword)' block (\(lines)): what runs depends on Ruby; translate the branch you need by hand")
            case .other:
                skip(statement, "Ruby code, not an action; do it in a 'run' step or drop it")
            case .assignment(let name, let call, let source):
                assign(name, call: call, source: source, statement: statement)
            case .call(let call):
                handle(call, statement)
            }
        }
    }

    private mutating func assign(_ name: String, call: RubyCall?, source: String, statement: Fastfile.Statement) {
        if let call, call.condition == nil, call.name == "changelog_from_git_commits" {
            handle(call, statement)
            bindings[name] = .changelog
        } else if let call, call.condition == nil, ["gym", "build_app", "build_ios_app"].contains(call.name) {
            handle(call, statement)
            bindings[name] = .value(.string("${{ steps.export.outputs.path }}"))
        } else if call?.name == "get_version_number", draft.step("version") != nil {
            bindings[name] = .value(.string("${{ steps.version.outputs.version }}"))
        } else if let value = value(.expression(source), statement: statement) {
            bindings[name] = .value(value)
        } else {
            skip(statement, "a Ruby assignment; its value is not known before the run")
        }
    }

    private mutating func handle(_ call: RubyCall, _ statement: Fastfile.Statement) {
        if let reason = Self.absorbed[call.name] {
            differ("\(call.name): not needed; \(reason)")
            output.translated.append(call.name)
            return
        }
        if let condition = call.condition {
            skip(statement, "runs only '\(condition)'; Slipway lanes have no Ruby conditions: keep the step or drop it by hand")
            return
        }
        if let inlined = translator.fastfile.lanes.first(where: { $0.name == call.name }) {
            guard !inlining.contains(inlined.name) else {
                skip(statement, "calls lane '\(inlined.name)' recursively")
                return
            }
            inlining.insert(inlined.name)
            walk(inlined.statements)
            inlining.remove(inlined.name)
            return
        }
        if translateAction(call, statement) {
            output.translated.append(call.name)
        }
    }

    // MARK: - Bookkeeping

    mutating func skip(_ statement: Fastfile.Statement, _ reason: String) {
        output.untranslated.append(UntranslatedItem(location: "\(path):\(statement.line)", what: statement.text, reason: reason))
    }

    mutating func skipArgument(_ action: String, _ key: String, _ statement: Fastfile.Statement, _ reason: String) {
        output.untranslated.append(UntranslatedItem(location: "\(path):\(statement.line)", what: "\(action)(\(key): …)", reason: reason))
    }

    mutating func differ(_ text: String) {
        if !output.differences.contains(text) { output.differences.append(text) }
    }

    /// Appends a step, giving it `id` (made unique) when asked; returns the id.
    @discardableResult
    mutating func add(_ kind: String, id: String? = nil, _ options: [DraftPair], from statement: Fastfile.Statement) -> String? {
        var unique = id
        if let id {
            var counter = 2
            while draft.steps.contains(where: { $0.id == unique }) {
                unique = "\(id)-\(counter)"
                counter += 1
            }
        }
        let origin = "\(path):\(statement.line) \(statement.text)"
        draft.steps.append(DraftStep(kind: kind, id: unique, options: options, origin: String(origin.prefix(160))))
        return unique
    }

    /// The id of an `appstore.build-number` step, added once.
    mutating func buildNumberStep(_ statement: Fastfile.Statement) -> String {
        if let step = draft.steps.first(where: { $0.kind == "appstore.build-number" }), let id = step.id { return id }
        var options = appStoreKeyOptions()
        options.append(DraftPair("bundle-id", bundleID(nil, statement) ?? .string("${{ inputs.bundle-id }}")))
        add("appstore.build-number", id: "build-number", options, from: statement)
        // The version step may already be there; the build number must come before it.
        if let version = draft.steps.firstIndex(where: { $0.kind == "version.bump" }) {
            draft.steps.insert(draft.steps.removeLast(), at: version)
        }
        output.translated.append("latest_testflight_build_number")
        return "build-number"
    }

    /// The App Store Connect API key options every appstore step takes, from secrets.
    mutating func appStoreKeyOptions() -> [DraftPair] {
        draft.requireSecret("ASC_KEY_ID", "The App Store Connect API key's id")
        draft.requireSecret("ASC_ISSUER_ID", "The App Store Connect API key's issuer id")
        draft.requireSecret("ASC_KEY", "The App Store Connect API key (.p8) text")
        return [DraftPair("key-id", .string("${{ secrets.ASC_KEY_ID }}")),
                DraftPair("issuer-id", .string("${{ secrets.ASC_ISSUER_ID }}")),
                DraftPair("key", .string("${{ secrets.ASC_KEY }}"))]
    }

    /// The bundle id: the argument, the Appfile's `app_identifier`, else the project's app.
    mutating func bundleID(_ argument: RubyValue?, _ statement: Fastfile.Statement) -> DraftValue? {
        if let argument, let value = value(argument.list.first ?? argument, statement: statement) { return value }
        if let value = translator.setting("app_identifier", preferMatchfile: false)?.list.first?.text { return .string(value) }
        return translator.survey.bundleIDs.first.map(DraftValue.string)
    }

    // MARK: - Values

    /// The keyword argument `key` (or, with `settings`, the Matchfile's or Appfile's setting) as
    /// a lane value; listed as not translated when it is there but only Ruby knows its value.
    mutating func literal(_ call: RubyCall, _ key: String, _ statement: Fastfile.Statement, settings: Bool = false) -> DraftValue? {
        guard let argument = call.argument(key) ?? (settings ? translator.setting(key) : nil) else { return nil }
        guard let converted = value(argument, statement: statement) else {
            skipArgument(call.name, key, statement, "its value is only known when Ruby runs")
            return nil
        }
        return converted
    }

    /// A Ruby value as a lane value; nil (and listed, unless quiet) when it is only known when
    /// Ruby runs.
    mutating func value(_ value: RubyValue, statement: Fastfile.Statement) -> DraftValue? {
        switch value {
        case .string(let text), .symbol(let text): return .string(text)
        case .number(let text): return Int(text).map(DraftValue.int) ?? .string(text)
        case .bool(let flag): return .bool(flag)
        case .nil: return nil
        case .array(let items):
            let converted = items.compactMap { self.value($0, statement: statement) }
            return converted.count == items.count ? .list(converted) : nil
        case .hash(let pairs):
            var converted: [DraftPair] = []
            for pair in pairs {
                guard let item = self.value(pair.value, statement: statement) else { return nil }
                converted.append(DraftPair(pair.key, item))
            }
            return .map(converted)
        case .environment(let name):
            return .string(environmentReference(name))
        case .laneOption(let name):
            let input = LaneSlug.make(name)
            draft.requireInput(input, "fastlane's lane option :\(name)")
            return .string("${{ inputs.\(input) }}")
        case .interpolated(let parts):
            var text = ""
            for part in parts {
                switch part {
                case .text(let literal): text += literal
                case .code(let code):
                    let inner = RubyValue.expression(code.trimmingCharacters(in: " "))
                    guard case .string(let piece)? = self.value(reinterpret(inner), statement: statement), piece.hasPrefix("${{") else {
                        return nil
                    }
                    text += piece
                }
            }
            return .string(text)
        case .expression(let source):
            if case .value(let bound)? = bindings[source] { return bound }
            let compact = source.filter { !$0.isWhitespace }
            for call in ["latest_testflight_build_number", "app_store_build_number"] where compact.hasPrefix(call) {
                let rest = compact.dropFirst(call.count)
                if rest == "+1" || (rest.hasPrefix("(") && rest.hasSuffix(")+1") && !rest.dropFirst().dropLast(3).contains("(")) {
                    return .string("${{ steps.\(buildNumberStep(statement)).outputs.next }}")
                }
                if rest.isEmpty || (rest.hasPrefix("(") && rest.hasSuffix(")") && !rest.dropFirst().dropLast().contains("(")) {
                    return .string("${{ steps.\(buildNumberStep(statement)).outputs.latest }}")
                }
            }
            let reinterpreted = reinterpret(value)
            if reinterpreted != value { return self.value(reinterpreted, statement: statement) }
            return nil
        }
    }

    /// Source text read again: `ENV['X']`, `options[:x]`, a bound variable.
    private func reinterpret(_ value: RubyValue) -> RubyValue {
        guard case .expression(let source) = value else { return value }
        if let name = Self.environmentName(source) { return .environment(name) }
        if source.hasPrefix("options[:"), source.hasSuffix("]") {
            return .laneOption(String(source.dropFirst("options[:".count).dropLast()))
        }
        return value
    }

    static func environmentName(_ source: String) -> String? {
        for prefix in ["ENV['", "ENV[\"", "ENV.fetch('", "ENV.fetch(\""] where source.hasPrefix(prefix) {
            let name = source.dropFirst(prefix.count).prefix(while: { $0 != "'" && $0 != "\"" })
            if !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) { return String(name) }
        }
        return nil
    }

    /// A secret for names that look like one (passwords, tokens, keys), else the environment.
    mutating func environmentReference(_ name: String) -> String {
        let upper = name.uppercased()
        let secret = ["PASSWORD", "TOKEN", "SECRET", "PRIVATE", "P12", "PASSPHRASE"].contains { upper.contains($0) }
            || (upper.hasSuffix("_KEY") || upper.contains("_KEY_CONTENT"))
        if secret {
            draft.requireSecret(name, "From the environment variable fastlane read")
            return "${{ secrets.\(name) }}"
        }
        return "${{ env.\(name) }}"
    }
}
