/// Everything there is to know about a step without running it: it feeds validation,
/// `slipway steps`, `slipway step NAME` and the examples test.
public struct StepDescription: Sendable {
    /// The id used in lane files, e.g. `git.tag`.
    public var id: String
    /// One line: what the step is for.
    public var summary: String
    /// Longer explanation (optional), shown by `slipway step NAME`.
    public var discussion: String
    /// The options it takes.
    public var options: [OptionSpec]
    /// The outputs it sets.
    public var outputs: [OutputSpec]
    /// True when the step may set outputs not listed in `outputs` (e.g. `run`), so references
    /// to other output names are not errors.
    public var hasDynamicOutputs: Bool
    /// The option a scalar value stands for: `- run: make` means `- run: { command: make }`.
    public var primaryOption: String?
    /// Lane-file snippets using the step; each is parsed and validated by a test.
    public var examples: [StepExample]
    /// The platforms the step runs on; others are refused at validation.
    public var platforms: Set<Platform>
    /// Rules between options (one of two, one needs another), checked at validation.
    public var rules: [OptionRule] = []

    /// Creates a description.
    public init(
        id: String, summary: String, discussion: String = "", options: [OptionSpec] = [],
        outputs: [OutputSpec] = [], hasDynamicOutputs: Bool = false, primaryOption: String? = nil,
        examples: [StepExample] = [], platforms: Set<Platform> = Set(Platform.allCases)
    ) {
        self.id = id
        self.summary = summary
        self.discussion = discussion
        self.options = options
        self.outputs = outputs
        self.hasDynamicOutputs = hasDynamicOutputs
        self.primaryOption = primaryOption
        self.examples = examples
        self.platforms = platforms
    }

    /// The declared defaults, by option name.
    public var defaultValues: [String: OptionValue] {
        var defaults: [String: OptionValue] = [:]
        for spec in options where defaults[spec.name] == nil {
            if let value = spec.defaultValue { defaults[spec.name] = value }
        }
        return defaults
    }

    /// The spec of the option called `name`, or nil.
    public func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }
}

/// One option of a step.
public struct OptionSpec: Sendable, Hashable {
    /// The key in the lane file.
    public var name: String
    /// Its type.
    public var type: OptionType
    /// Whether the lane must give it (an option with a default is never required).
    public var isRequired: Bool
    /// The value used when the lane does not give one.
    public var defaultValue: OptionValue?
    /// One line: what it does.
    public var summary: String

    /// A required option.
    public static func required(_ name: String, _ type: OptionType, _ summary: String) -> OptionSpec {
        OptionSpec(name: name, type: type, isRequired: true, defaultValue: nil, summary: summary)
    }

    /// An optional option, with or without a default.
    public static func optional(_ name: String, _ type: OptionType, default value: OptionValue? = nil,
                                _ summary: String) -> OptionSpec {
        OptionSpec(name: name, type: type, isRequired: false, defaultValue: value, summary: summary)
    }
}

/// The type of an option's value.
public indirect enum OptionType: Sendable, Hashable, CustomStringConvertible {
    case string
    case int
    case bool
    /// A duration such as `30s`, `5m`, `1h30m`, `250ms`, or a number of seconds.
    case duration
    /// One of a fixed set of strings.
    case choice([String])
    case list(OptionType)
    case map(OptionType)

    public var description: String {
        switch self {
        case .string: return "string"
        case .int: return "int"
        case .bool: return "bool"
        case .duration: return "duration"
        case .choice(let values): return values.joined(separator: "|")
        case .list(let element): return "[\(element)]"
        case .map(let element): return "{string: \(element)}"
        }
    }
}

/// One output of a step.
public struct OutputSpec: Sendable, Hashable {
    /// The name used in `${{ steps.ID.outputs.NAME }}`.
    public var name: String
    /// What it holds.
    public var summary: String
    /// The type its value has in an expression. Outputs travel as text (journals, hand-over
    /// records, CI); a `.list` or `.map` output is JSON text, an `.int` one decimal digits, a
    /// `.bool` one `true`/`false`, and `${{ steps.ID.outputs.NAME }}` decodes it to this type.
    public var type: OptionType
    /// True when the value is the path of a file or folder the step wrote (an archive, an .ipa,
    /// a log): another machine (a later CI job) has it only through `artifacts:`.
    public var isFile: Bool

    /// Creates an output spec (a string unless `type` says otherwise).
    public init(_ name: String, _ summary: String, type: OptionType = .string, file: Bool = false) {
        self.name = name
        self.summary = summary
        self.type = type
        self.isFile = file
    }
}

/// A documented example: a title and a lane-file snippet (a YAML list with one or more steps).
public struct StepExample: Sendable, Hashable {
    /// What the example shows.
    public var title: String
    /// YAML: one or more step entries, as under `steps:`.
    public var yaml: String

    /// Creates an example.
    public init(_ title: String, _ yaml: String) {
        self.title = title
        self.yaml = yaml
    }
}

/// An operating system a step can run on.
public enum Platform: String, Sendable, Hashable, CaseIterable, Codable {
    case linux
    case macOS = "macos"

    /// The platform this binary runs on: the one it was compiled for, or macOS in Slipway's
    /// test-only STAND-IN executable `slipway-macos-standin` (see `Platform+StandIn.swift`).
    public static var current: Platform { standInPlatform ?? compiled }

    /// The platform this binary was compiled for.
    public static var compiled: Platform {
        #if os(macOS)
        return .macOS
        #else
        return .linux
        #endif
    }
}
