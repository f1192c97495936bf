import Basics

/// The fastlane actions Slipway translates, one translator per action (or family of aliases).
/// Add a translator here to have it used (see FastlaneActionTranslator.swift).
enum FastlaneActionRegistry {
    static var translators: [any FastlaneActionTranslator.Type] {
        [
            EnsureGitStatusCleanTranslator.self,
            GymTranslator.self,
            ScanTranslator.self,
            MatchTranslator.self,
            PilotTranslator.self,
            IncrementVersionNumberTranslator.self,
            IncrementBuildNumberTranslator.self,
            ChangelogFromGitCommitsTranslator.self,
            AddGitTagTranslator.self,
            PushToGitRemoteTranslator.self,
            GitCommitTranslator.self,
            CommitVersionBumpTranslator.self,
            ShTranslator.self,
            NotarizeTranslator.self,
            CocoaPodsTranslator.self,
            DeployGateTranslator.self,
            UploadToAppStoreTranslator.self,
            PrecheckTranslator.self,
            SlackTranslator.self,
            SynxTranslator.self,
            PushCertificateTranslator.self,
            XcodesTranslator.self,
            BuildNumberQueryTranslator.self,
            SetupCITranslator.self,
            AppStoreConnectAPIKeyTranslator.self,
            ClearDerivedDataTranslator.self,
            XcversionTranslator.self,
        ]
    }

    /// The translator for an action called `name` (an alias included).
    static func translator(for name: String) -> (any FastlaneActionTranslator.Type)? {
        translators.first { $0.names.contains(name) }
    }
}

extension LaneBuilder {
    /// Translates one action through its translator, listing every argument that is not carried
    /// over; false (and listed) when Slipway has no step for it, or does it with a command.
    mutating func translateAction(_ call: RubyCall, _ statement: Fastfile.Statement) -> Bool {
        guard let translator = FastlaneActionRegistry.translator(for: call.name) else {
            return listActionWithoutStep(call, statement)
        }
        let call = translator.prepare(resolvingLiterals(expandingSplats(call), statement), builder: self)
        listArguments(call, statement, translator)
        translator.translate(call, statement, into: &self)
        listRubyOnlyValues(call, statement)
        return translator.makesSteps
    }

    /// Before translating: keywords fastlane does not document, `.listed` parameters, splats and
    /// positional arguments the action does not take.
    mutating func listArguments(_ call: RubyCall, _ statement: Fastfile.Statement, _ translator: any FastlaneActionTranslator.Type) {
        for pair in call.keywords {
            guard let parameter = translator.parameter(pair.key) else {
                skipArgument(call.name, pair.key, statement,
                             "not a parameter fastlane documents for \(call.name) (\(translator.documentation)); check the spelling, it is not translated")
                continue
            }
            if case .listed(let reason) = parameter.mapping { skipArgument(call.name, pair.key, statement, reason) }
        }
        for argument in call.positional {
            if case .expression(let source) = argument, source.hasPrefix("*") || source.hasPrefix("&") {
                skipArgument(call.name, source, statement,
                             "a splat: the arguments it passes are only known when Ruby runs; write them out in the call (each becomes an option or is listed)", positional: true)
            } else if !translator.takesPositionalArguments {
                let shown = argument.text ?? Self.source(of: argument)
                skipArgument(call.name, shown, statement, "a positional argument \(call.name) does not take; not translated", positional: true)
            }
        }
    }

    /// After translating: any keyword whose value only Ruby knows (a constant, a method call, a
    /// `def` argument) and that the translator did not list already.
    private mutating func listRubyOnlyValues(_ call: RubyCall, _ statement: Fastfile.Statement) {
        for pair in call.keywords where !isListed(call.name, pair.key, statement) && !isKnown(pair.value, statement) {
            skipArgument(call.name, pair.key, statement,
                         "its value (\(Self.source(of: pair.value))) is only known when Ruby runs; the lane does not have it: give the value by hand")
        }
    }

    /// Whether `value` converts to a lane value (without changing the lane being built).
    func isKnown(_ value: RubyValue, _ statement: Fastfile.Statement) -> Bool {
        if case .nil = value { return true }
        // A variable bound to what a step made (changelog_from_git_commits' text): the
        // translator that takes it knows what it is.
        if case .expression(let name) = value, bindings[name] != nil { return true }
        var copy = self
        return copy.value(value, statement: statement) != nil
    }

    /// A value as written, for messages.
    static func source(of value: RubyValue) -> String {
        switch value {
        case .string(let text): return "'\(text)'"
        case .symbol(let text): return ":\(text)"
        case .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .nil: return "nil"
        case .array(let items): return "[" + items.map(source(of:)).joined(separator: ", ") + "]"
        case .hash(let pairs): return "{ " + pairs.map { "\($0.key): \(source(of: $0.value))" }.joined(separator: ", ") + " }"
        case .environment(let name): return "ENV['\(name)']"
        case .laneOption(let name): return "options[:\(name)]"
        case .expression(let text): return text
        case .interpolated(let parts):
            return "\"" + parts.map { part in
                switch part {
                case .text(let text): return text
                case .code(let code): return "#{\(code)}"
                }
            }.joined() + "\""
        }
    }
}
