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
    var inlining: Set<String> = []
    /// What `options[:name]` means: the lane's inputs (the lane itself), or the arguments an
    /// inlined lane was called with (nil where only Ruby knows the value).
    var optionFrames: [[String: DraftValue?]?] = [nil]
    /// Local variables assigned so far (a bare name is a lane's return value, not an action).
    var assignedNames: Set<String> = []
    /// Whether the statements being walked are `before_all`'s.
    private var inHook = false
    /// fastlane's own environment variables set with `ENV[…] =`.
    private var fastlaneSettings: [String] = []
    /// Set while inlining `lane(options)` from the lane itself: its options stay the inputs.
    private var passThroughInputs = false
    /// Ruby variables bound to values a step makes (`log = changelog_from_git_commits`).
    var bindings: [String: Binding] = [:]
    /// Statements walked so far (inlined lanes and methods included), against a Fastfile whose
    /// lanes or helpers call each other in a doubling chain.
    var walked = 0
    /// The most statements walked for one lane.
    static let maximumStatements = 20_000
    /// Arguments already listed as not translated (`file:line action(key`), so none is listed twice.
    private var listedArguments: Set<String> = []

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
            "Translated by 'slipway init --from-fastlane' from the lane '\(source)' in \(lane.file):\(lane.line).",
            "Check it with 'slipway validate \(name) --platform macos'; what was not translated is listed",
            "at the end of this file and was printed by init.",
        ]
        output = FastlaneTranslation.Lane(draft: draft, source: source, translated: [], differences: [], untranslated: [])
    }

    /// The main Fastfile: fastlane runs actions in its folder.
    var path: String { translator.fastfile.path }
    var draft: LaneDraft {
        get { output.draft }
        // In place: a step appended through `draft` must not copy the lane's steps each time.
        _modify { yield &output.draft }
    }

    mutating func run() {
        inlining.insert(lane.name)
        inHook = true
        walk(translator.fastfile.beforeAll)
        inHook = false
        walk(lane.statements)
        if !fastlaneSettings.isEmpty {
            differ("ENV[\(fastlaneSettings.joined(separator: ", "))] = …: fastlane's own settings; Slipway's steps take options and secrets instead")
        }
        if !output.untranslated.isEmpty {
            output.draft.footer = ["Not translated (see 'slipway init --from-fastlane' output):"]
                + output.untranslated.map { "  \($0.location) \($0.what): \($0.reason)" }
        }
    }

    mutating func walk(_ statements: [Fastfile.Statement]) {
        for statement in statements {
            walked += 1
            guard walked <= Self.maximumStatements else {
                if walked == Self.maximumStatements + 1 {
                    skip(statement, "the lane's private lanes and helper methods call each other for more than \(Self.maximumStatements) statements; the rest of the lane is not translated")
                }
                return
            }
            switch statement.kind {
            case .compound(let keyword):
                let lines = statement.line == statement.endLine ? "line \(statement.line)" : "lines \(statement.line)-\(statement.endLine)"
                skip(statement, "a Ruby '\(keyword)' block (\(lines)): what runs depends on Ruby; translate the branch you need by hand")
            case .other:
                if !environmentAssignment(statement) {
                    skip(statement, "Ruby code, not an action; do it in a 'run' step or drop it")
                }
            case .assignment(let name, let call, let source):
                assign(name, call: call, source: source, statement: statement)
                assignedNames.insert(name)
            case .call(let call):
                handle(call, statement)
            }
        }
    }

    private mutating func assign(_ name: String, call: RubyCall?, source: String, statement: Fastfile.Statement) {
        if let call, call.condition == nil, call.name == "changelog_from_git_commits" {
            handle(call, statement)
            bindings[name] = .changelog
        } else if let call, call.condition == nil, translator.fastfile.method(named: call.name) != nil {
            // A helper's calls are inlined or listed; what it returns stays unknown.
            handle(call, statement)
        } else if let call, call.condition == nil, GymTranslator.names.contains(call.name) {
            // gym returns the .ipa's path (the archive's with skip_package_ipa).
            let before = draft.steps.count
            handle(call, statement)
            let made = draft.steps[min(before, draft.steps.count)...]
            if let export = made.last(where: { $0.kind == "xcode.export" })?.id {
                bindings[name] = .value(.string("${{ steps.\(export).outputs.path }}"))
            } else if let archive = made.last(where: { $0.kind == "xcode.archive" })?.id {
                bindings[name] = .value(.string("${{ steps.\(archive).outputs.archive }}"))
            }
        } else if let call, call.condition == nil, translator.fastfile.lanes.contains(where: { $0.name == call.name }) {
            // `ipa = create_archive`: the lane runs where it is called; what it returns is its
            // last export's file when it made one.
            let before = draft.steps.count
            handle(call, statement)
            if let export = draft.steps[before...].last(where: { $0.kind == "xcode.export" })?.id {
                bindings[name] = .value(.string("${{ steps.\(export).outputs.path }}"))
            }
        } else if call?.name == "get_version_number", draft.step("version") != nil {
            bindings[name] = .value(.string("${{ steps.version.outputs.version }}"))
        } else if let value = value(.expression(source), statement: statement) {
            bindings[name] = .value(value)
        } else {
            skip(statement, "a Ruby assignment; its value is not known before the run")
        }
    }

    /// `ENV['NAME'] = value`: fastlane's own variables are said once; others become the
    /// lane's `env:`.
    private mutating func environmentAssignment(_ statement: Fastfile.Statement) -> Bool {
        var tokenizer = RubyTokenizer(source: statement.text, file: statement.file)
        guard let tokens = try? tokenizer.tokenize().filter({ !$0.isNewline }), tokens.count > 5,
              tokens[0].identifier == "ENV", tokens[1].isPunctuation("["), case .string(let parts) = tokens[2].kind,
              tokens[3].isPunctuation("]"), tokens[4].isPunctuation("=") else { return false }
        let name = RubyTokenizer.plainText(parts)
        let prefixes = ["FASTLANE_", "FL_", "DELIVER_", "PILOT_", "SIGH_", "MATCH_", "GYM_", "SCAN_", "SNAPSHOT_", "SPACESHIP_"]
        if prefixes.contains(where: name.hasPrefix) {
            fastlaneSettings.append(name)
            return true
        }
        let rubyValue = RubyCallReader(source: Array(statement.text.utf8)).value(tokens[5...])
        guard let converted = value(rubyValue, statement: statement) else { return false }
        draft.setEnvironment(name, converted)
        return true
    }

    private mutating func handle(_ call: RubyCall, _ statement: Fastfile.Statement) {
        if call.positional.isEmpty, call.keywords.isEmpty, assignedNames.contains(call.name) || bindings[call.name] != nil {
            return // a lane's return value
        }
        // Ruby calls a method the Fastfile defines before a lane or an action of that name.
        if let method = translator.fastfile.method(named: call.name) {
            if let condition = call.condition {
                skip(statement, "runs only '\(condition)'; Slipway lanes have no Ruby conditions: keep the step or drop it by hand")
            } else {
                callMethod(method, call, statement)
            }
            return
        }
        if let reason = FastlaneActionRegistry.translator(for: call.name)?.notNeeded {
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
            var frame: [String: DraftValue?] = [:]
            if case .expression("options")? = call.positional.first, let outer = optionFrames.last {
                frame = outer ?? [:]
                if outer == nil { passThroughInputs = true }
            }
            for pair in call.keywords { frame[pair.key] = value(pair.value, statement: statement) }
            inlining.insert(inlined.name)
            optionFrames.append(passThroughInputs && call.keywords.isEmpty ? nil : frame)
            passThroughInputs = false
            walk(inlined.statements)
            optionFrames.removeLast()
            inlining.remove(inlined.name)
            return
        }
        if translateAction(call, statement) {
            output.translated.append(call.name)
        }
    }

    // MARK: - Bookkeeping

    mutating func skip(_ statement: Fastfile.Statement, _ reason: String) {
        let item = UntranslatedItem(location: "\(statement.file):\(statement.line)", what: statement.text, reason: reason)
        output.untranslated.append(item)
        if inHook { output.hookUntranslated.append(item) }
    }

    /// Lists the argument `key` of `action` (once per statement): `action(key: …): reason`; a
    /// positional argument (`**OPTIONS`) is shown as written with `positional`.
    mutating func skipArgument(_ action: String, _ key: String, _ statement: Fastfile.Statement, _ reason: String, positional: Bool = false) {
        guard listedArguments.insert("\(statement.file):\(statement.line) \(action)(\(key)").inserted else { return }
        let item = UntranslatedItem(location: "\(statement.file):\(statement.line)", what: positional ? "\(action)(\(key))" : "\(action)(\(key): …)", reason: reason)
        output.untranslated.append(item)
        if inHook { output.hookUntranslated.append(item) }
    }

    /// Marks the argument `key` as translated although only Ruby knows its value (match's
    /// `readonly: is_ci` is signing.sync's default): the registry does not list it.
    mutating func accountFor(_ action: String, _ key: String, _ statement: Fastfile.Statement) {
        listedArguments.insert("\(statement.file):\(statement.line) \(action)(\(key)")
    }

    /// Whether the argument `key` of `action` at `statement` (or a part of it, `key[part]`) was
    /// listed already.
    func isListed(_ action: String, _ key: String, _ statement: Fastfile.Statement) -> Bool {
        let entry = "\(statement.file):\(statement.line) \(action)(\(key)"
        return listedArguments.contains(entry) || listedArguments.contains { $0.hasPrefix(entry + "[") }
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
        let origin = "\(statement.file):\(statement.line) \(statement.text)"
        draft.steps.append(DraftStep(kind: kind, id: unique, options: options, origin: String(origin.prefix(160))))
        return unique
    }

    /// `latest_testflight_build_number(…)` or `app_store_build_number`, perhaps `+ 1`: the call
    /// and whether one is added.
    static func buildNumberQuery(_ source: String) -> (RubyCall, Bool)? {
        var tokenizer = RubyTokenizer(source: source, file: "")
        guard var tokens = try? tokenizer.tokenize() else { return nil }
        tokens.removeAll(where: \.isNewline)
        var next = false
        if tokens.count >= 2, tokens[tokens.count - 2].isPunctuation("+"), tokens.last?.kind == .number("1") {
            next = true
            tokens.removeLast(2)
        }
        guard let call = RubyCallReader(source: Array(source.utf8)).call(tokens),
              ["latest_testflight_build_number", "app_store_build_number"].contains(call.name) else { return nil }
        return (call, next)
    }

    /// The id of an `appstore.build-number` step, added once.
    mutating func buildNumberStep(_ statement: Fastfile.Statement, query: RubyCall? = nil) -> String {
        if let query { listArguments(query, statement, BuildNumberQueryTranslator.self) }
        if let step = draft.steps.first(where: { $0.kind == "appstore.build-number" }), let id = step.id { return id }
        var options = appStoreKeyOptions()
        options.append(DraftPair("bundle-id", bundleID(query?.argument("app_identifier"), statement) ?? .string("${{ inputs.bundle-id }}")))
        if let query, let version = literal(query, "version", statement) { options.append(DraftPair("version", version)) }
        if let query, let platform = query.argument("platform")?.text {
            let platforms = ["ios": "IOS", "osx": "MAC_OS", "appletvos": "TV_OS", "xros": "VISION_OS"]
            if let mapped = platforms[platform] { options.append(DraftPair("platform", .string(mapped))) }
        }
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
        if let value = translator.setting("app_identifier", preferMatchfile: false, lane: lane)?.list.first?.text { return .string(value) }
        guard let first = translator.survey.bundleIDs.first else { return nil }
        // Not from fastlane's files: say which target it came from, so it is checked.
        let target = translator.survey.shippingTargets.first { $0.bundleID == first }?.name ?? first
        differ("no app_identifier in the action or the Appfile: the bundle id \(first) is the project's target '\(target)'; check it")
        return .string(first)
    }
}
