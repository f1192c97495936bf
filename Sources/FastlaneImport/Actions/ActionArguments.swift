import Basics
import Foundation

/// Reading arguments the way the distribution, notification and tool translators need them:
/// Boolean flags, credentials (always secrets) and the binary a step sends.
extension LaneBuilder {
    /// A Boolean parameter's literal value (`true`, `false`, or the strings fastlane accepts for
    /// them); `fallback` (fastlane's default) when the call does not give it. A value only Ruby
    /// knows is listed, and the lane does what fastlane's default does.
    mutating func flag(_ call: RubyCall, _ key: String, _ statement: Fastfile.Statement, default fallback: Bool) -> Bool {
        guard let argument = call.argument(key) else { return fallback }
        switch argument {
        case .bool(let value): return value
        case .string("true"), .string("yes"): return true
        case .string("false"), .string("no"): return false
        default:
            skipArgument(call.name, key, statement, "its value (\(Self.source(of: argument))) is only known when Ruby runs; "
                         + "the lane does what fastlane does by default (\(key): \(fallback)): change it by hand if needed")
            return fallback
        }
    }

    /// A credential as `${{ secrets.NAME }}`: the variable the Fastfile reads it from (`ENV[…]`),
    /// else `name` (the variable fastlane itself reads when the argument is not given). A
    /// credential written in the Fastfile is not copied into the lane: the lane takes it from the
    /// secret `name` and says so.
    mutating func secret(_ call: RubyCall, _ key: String, _ statement: Fastfile.Statement, name: String, _ description: String) -> DraftValue {
        switch call.argument(key) {
        case nil:
            draft.requireSecret(name, description)
            return .string("${{ secrets.\(name) }}")
        case .environment(let variable)?:
            draft.requireSecret(variable, description)
            return .string("${{ secrets.\(variable) }}")
        case .string?, .interpolated?:
            draft.requireSecret(name, description)
            differ("\(call.name)'s \(key) is written in the Fastfile: the lane takes it from the secret \(name) instead; set that secret, "
                   + "and revoke the one in the Fastfile (it stays in the repository's history)")
            return .string("${{ secrets.\(name) }}")
        case let argument?:
            draft.requireSecret(name, description)
            skipArgument(call.name, key, statement, "its value (\(Self.source(of: argument))) is only known when Ruby runs; "
                         + "the lane takes it from the secret \(name): set that secret")
            return .string("${{ secrets.\(name) }}")
        }
    }

    /// The file a step sends: the first of `keys` the call gives, else the lane's last
    /// `xcode.export` (fastlane's default is gym's output), else the input `input`.
    mutating func binary(_ call: RubyCall, _ statement: Fastfile.Statement, keys: [String], input: String, _ description: String) -> DraftValue {
        if let key = keys.first(where: { call.argument($0) != nil }) {
            if let file = literal(call, key, statement) { return file }
        } else if let export = draft.steps.last(where: { $0.kind == "xcode.export" })?.id {
            return .string("${{ steps.\(export).outputs.path }}")
        }
        draft.requireInput(input, description)
        return .string("${{ inputs.\(input) }}")
    }

    /// The statement with the literal values of `keys` (credentials written in the Fastfile)
    /// replaced by `…`, for the step's origin comment: the lane file must not repeat them.
    static func redacting(_ keys: [String], of call: RubyCall, in statement: Fastfile.Statement) -> Fastfile.Statement {
        var shown = statement
        for key in keys {
            guard case .string(let text)? = call.argument(key), !text.isEmpty else { continue }
            shown.text = shown.text.replacingOccurrences(of: text, with: "…")
        }
        return shown
    }
}
