import Foundation
import Basics

/// The versioned JSON protocol between Slipway and an external step plugin
/// (`slipway-step-NAME`, any language). Documented in docs/plugins.md.
public enum PluginProtocol {
    /// The protocol version this Slipway speaks.
    public static let version = 1
    /// The prefix of plugin executables.
    public static let executablePrefix = "slipway-step-"

    /// What Slipway asks of the plugin.
    public enum Action: String, Codable, Sendable {
        /// Print one `description` event.
        case describe
        /// Print `effect` events: what `run` would do. Nothing may change.
        case plan
        /// Do the work: `log`, `progress`, `output` events, then one `result` event.
        case run
    }

    /// The request, written to the plugin's standard input as one JSON object.
    public struct Request: Codable, Sendable {
        public var `protocol`: Int
        public var action: Action
        public var step: String
        public var lane: String
        public var options: [String: OptionValue]
        public var inputs: [String: String]
        public var outputs: [String: [String: String]]
        public var workingDirectory: String
        public var dryRun: Bool
    }

    /// One line the plugin prints on standard output.
    public struct Event: Codable, Sendable {
        public var event: String
        // log
        public var level: String?
        public var message: String?
        // progress
        public var fraction: Double?
        // output
        public var name: String?
        public var value: String?
        // result
        public var status: String?
        // effect
        public var kind: String?
        public var summary: String?
        // description
        public var `protocol`: Int?
        public var options: [OptionDescription]?
        public var outputs: [OutputDescription]?
        public var platforms: [String]?
        public var discussion: String?
        public var examples: [ExampleDescription]?
    }

    /// An option in a plugin's description.
    public struct OptionDescription: Codable, Sendable {
        public var name: String
        public var type: String
        public var required: Bool?
        public var `default`: OptionValue?
        public var summary: String?
    }

    /// An output in a plugin's description.
    public struct OutputDescription: Codable, Sendable {
        public var name: String
        public var summary: String?
    }

    /// An example in a plugin's description.
    public struct ExampleDescription: Codable, Sendable {
        public var title: String
        public var yaml: String
    }

    /// Reads a type as plugins write it: `string`, `int`, `bool`, `duration`, `[string]`,
    /// `{string: string}`, or choices `a|b|c`.
    public static func optionType(_ text: String) -> OptionType? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed {
        case "string": return .string
        case "int": return .int
        case "bool": return .bool
        case "duration": return .duration
        default: break
        }
        if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
            return optionType(String(trimmed.dropFirst().dropLast())).map { .list($0) }
        }
        if trimmed.hasPrefix("{string:") && trimmed.hasSuffix("}") {
            return optionType(String(trimmed.dropFirst(8).dropLast())).map { .map($0) }
        }
        if trimmed.contains("|") {
            return .choice(trimmed.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return nil
    }
}
