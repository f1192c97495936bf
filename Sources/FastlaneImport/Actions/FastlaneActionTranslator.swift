// How to add a fastlane action (or teach an existing one a parameter):
//
// 1. Make a file `Actions/<Action>Translator.swift` with an enum conforming to
//    `FastlaneActionTranslator`: `names` (the action and every alias a Fastfile may call),
//    `documentation` (https://docs.fastlane.tools/actions/<name>/), `parameters` (EVERY
//    parameter fastlane documents for the action, from its `available_options`: each either
//    `.maps(name, to: option)`, `.handled(name, how)` when `translate` reads it itself, or
//    `.listed(name, why)` when it cannot be carried over, saying what to do instead), `defaults`
//    (what fastlane does without being asked: `bundle exec`, tag names with the platform, …)
//    and `translate(_:_:into:)`, which adds the steps through the builder.
// 2. Add the type to `FastlaneActionRegistry.translators`.
// 3. Add fastlane's documented examples (the action's docs page) as cases in
//    Tests/FastlaneImportTests, and a row in docs/from-fastlane.md.
//
// The registry, not the translator, checks the arguments against `parameters` before
// `translate` runs: a keyword that is not in the table is listed as "not a parameter fastlane
// documents for <action>", a `.listed` one with its reason, a splat (`**OPTIONS`) or a value only
// Ruby knows (a constant, a method call) as such. After `translate` it lists any keyword whose
// value only Ruby knows and that `translate` did not list. So an argument is never dropped
// without a line; `translate` only has to carry the `.maps` and `.handled` ones (use
// `builder.carry` and `builder.literal`, which list what they cannot convert; call
// `builder.accountFor` for a Ruby-only value the translator did handle, such as match's
// `readonly: is_ci`). Before that, `**CONSTANT` splats of literal hashes are expanded and
// arguments bound to known literals (a `def`'s parameters, constants) are written out, so
// `call.argument(key)?.text` sees what Ruby would pass. `prepare` adds defaults (gym's Gymfile);
// `notNeeded` says why an action needs no step (setup_ci).

/// One parameter of a fastlane action and what becomes of it in a Slipway lane.
struct FastlaneParameter: Sendable, Hashable {
    enum Mapping: Sendable, Hashable {
        /// Copied, value converted, to the step option.
        case option(String)
        /// Read by the translator itself; the text says how (for docs and reviews).
        case handled(String)
        /// Not carried over: why, and what to do instead. Listed whenever the call has it.
        case listed(String)
    }

    var name: String
    var mapping: Mapping

    /// Copied to the step's option `option`.
    static func maps(_ name: String, to option: String) -> FastlaneParameter { FastlaneParameter(name: name, mapping: .option(option)) }
    /// Read by `translate`; `how` says what it becomes.
    static func handled(_ name: String, _ how: String) -> FastlaneParameter { FastlaneParameter(name: name, mapping: .handled(how)) }
    /// Listed with `reason` (why it cannot be carried over and what to do) whenever it is given.
    static func listed(_ name: String, _ reason: String) -> FastlaneParameter { FastlaneParameter(name: name, mapping: .listed(reason)) }
}

/// Translates the calls of one fastlane action (and its aliases) into Slipway steps.
protocol FastlaneActionTranslator {
    /// The action's name first, then its aliases.
    static var names: [String] { get }
    /// The action's page in fastlane's documentation.
    static var documentation: String { get }
    /// Every parameter fastlane documents for the action.
    static var parameters: [FastlaneParameter] { get }
    /// What fastlane does by default that a reader of the lane should know (said where it
    /// matters by `translate`; listed in docs).
    static var defaults: [String] { get }
    /// When the action needs no step in Slipway: why (said in the lane's differences).
    static var notNeeded: String? { get }
    /// Whether the call takes positional arguments (most actions take none; `sh` does).
    static var takesPositionalArguments: Bool { get }
    /// False for an action Slipway does with a command rather than a step (`pem`): its
    /// translator lists the call with that command, and it is not counted as translated.
    static var makesSteps: Bool { get }
    /// The call as fastlane sees it, before its arguments are checked: gym and scan add their
    /// Gymfile's and Scanfile's settings.
    static func prepare(_ call: RubyCall, builder: LaneBuilder) -> RubyCall
    /// Adds the call's steps to the lane being built. The registry has already listed the
    /// arguments that are not carried over.
    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder)
}

extension FastlaneActionTranslator {
    static var defaults: [String] { [] }
    static var takesPositionalArguments: Bool { false }
    static var notNeeded: String? { nil }
    static var makesSteps: Bool { true }
    static func prepare(_ call: RubyCall, builder: LaneBuilder) -> RubyCall { call }

    /// The table's entry for `name`.
    static func parameter(_ name: String) -> FastlaneParameter? { parameters.first { $0.name == name } }

    /// `[fastlane name: Slipway option]` for the `.maps` parameters.
    static var optionMap: [String: String] {
        var map: [String: String] = [:]
        for parameter in parameters { if case .option(let option) = parameter.mapping { map[parameter.name] = option } }
        return map
    }

    /// `https://docs.fastlane.tools/actions/<name>/`.
    static func docs(_ name: String) -> String { "https://docs.fastlane.tools/actions/\(name)/" }
}
