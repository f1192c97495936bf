import Basics

/// A value in a lane file being written.
public indirect enum DraftValue: Sendable, Hashable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case list([DraftValue])
    case map([DraftPair])

    /// YAML in flow style (one line), quoted where plain text could be misread.
    var yaml: String {
        switch self {
        case .string(let text): return Self.scalar(text)
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .list(let items): return "[" + items.map(\.yaml).joined(separator: ", ") + "]"
        case .map(let pairs): return "{ " + pairs.map { Self.scalar($0.key) + ": " + $0.value.yaml }.joined(separator: ", ") + " }"
        }
    }

    /// Plain when it is made of letters, digits, spaces and `._/-,()'`, starts with a letter,
    /// digit, `_` or `/`, ends without a space, and is no YAML keyword or number; double-quoted
    /// (JSON escapes are YAML escapes) otherwise.
    static func scalar(_ text: String) -> String {
        let keywords: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"]
        let allowed = "._/-,()' ".unicodeScalars
        let isASCIIAlphanumeric = { (scalar: Unicode.Scalar) in scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) }
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
              isASCIIAlphanumeric(first) || first == "_" || first == "/" || first == ".", last != " ",
              text.unicodeScalars.allSatisfy({ isASCIIAlphanumeric($0) || allowed.contains($0) }),
              !keywords.contains(text.lowercased()), Double(text) == nil else {
            return JSONFormatting.quoted(text)
        }
        return text
    }
}

/// A key and value of a lane mapping.
public struct DraftPair: Sendable, Hashable {
    public var key: String
    public var value: DraftValue

    public init(_ key: String, _ value: DraftValue) {
        self.key = key
        self.value = value
    }
}

/// A step of a lane being written.
public struct DraftStep: Sendable, Hashable {
    public var kind: String
    public var id: String?
    public var options: [DraftPair]
    /// Where it came from (`fastlane/Fastfile:12 gym(...)`), written as a comment above it.
    public var origin: String?
    /// The step's own settings beside `id` (`continue-on-error: true`).
    public var settings: [DraftPair] = []

    /// The option `key`.
    public func option(_ key: String) -> DraftValue? { options.first(where: { $0.key == key })?.value }

    /// Sets (or replaces) an option, keeping the order of the others.
    public mutating func set(_ key: String, _ value: DraftValue) {
        if let index = options.firstIndex(where: { $0.key == key }) { options[index].value = value } else { options.append(DraftPair(key, value)) }
    }
}

/// A lane input being written.
public struct DraftInput: Sendable, Hashable {
    public var name: String
    public var description: String
    public var defaultValue: String?
    /// The values allowed, when limited.
    public var choices: [String] = []
}

/// A lane being written.
public struct LaneDraft: Sendable, Hashable {
    public var name: String
    public var description: String
    /// Comment lines at the top of the file.
    public var header: [String] = []
    public var inputs: [DraftInput] = []
    /// The lane's `env:`.
    public var environment: [DraftPair] = []
    /// Secrets by name, with their descriptions (the default values are unused).
    public var secrets: [DraftInput] = []
    public var steps: [DraftStep] = []
    /// Comment lines at the end of the file.
    public var footer: [String] = []

    public init(name: String, description: String) {
        self.name = name
        self.description = description
    }

    /// The step with `id`.
    public func step(_ id: String) -> DraftStep? { steps.first(where: { $0.id == id }) }

    /// Adds an input once.
    public mutating func requireInput(_ name: String, _ description: String, default value: String? = nil, choices: [String] = []) {
        if !inputs.contains(where: { $0.name == name }) {
            inputs.append(DraftInput(name: name, description: description, defaultValue: value, choices: choices))
        }
    }

    /// Sets an `env:` variable.
    public mutating func setEnvironment(_ name: String, _ value: DraftValue) {
        environment.removeAll { $0.key == name }
        environment.append(DraftPair(name, value))
    }

    /// Declares a secret once.
    public mutating func requireSecret(_ name: String, _ description: String) {
        if !secrets.contains(where: { $0.name == name }) { secrets.append(DraftInput(name: name, description: description, defaultValue: nil)) }
    }

    /// A comment's text on one line: Fastfile text quoted in comments (a statement, a path)
    /// could otherwise end the comment with a line break YAML knows (CR, NEL, U+2028, U+2029)
    /// and add keys to the lane; control characters and those breaks become `?`.
    static func commentText(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            let breaks = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar == "\u{2028}" || scalar == "\u{2029}" || scalar == "\u{FEFF}"
            return breaks ? "?" : scalar
        }))
    }

    /// The lane file's text.
    public func yaml() -> String {
        var lines = header.map { $0.isEmpty ? "#" : "# " + Self.commentText($0) }
        lines.append("description: " + DraftValue.scalar(description))
        if !inputs.isEmpty {
            lines.append("")
            lines.append("inputs:")
            for input in inputs {
                lines.append("  \(input.name):")
                lines.append("    description: " + DraftValue.scalar(input.description))
                if let value = input.defaultValue {
                    lines.append("    default: " + DraftValue.scalar(value))
                } else {
                    lines.append("    required: true")
                }
                if !input.choices.isEmpty { lines.append("    choices: " + DraftValue.list(input.choices.map(DraftValue.string)).yaml) }
            }
        }
        if !secrets.isEmpty {
            lines.append("")
            lines.append("secrets:")
            for secret in secrets {
                lines.append("  \(secret.name):")
                lines.append("    description: " + DraftValue.scalar(secret.description))
            }
        }
        if !environment.isEmpty {
            lines.append("")
            lines.append("env:")
            for variable in environment { lines.append("  \(DraftValue.scalar(variable.key)): \(variable.value.yaml)") }
        }
        lines.append("")
        lines.append("steps:")
        for step in steps {
            if let origin = step.origin { lines.append("  # " + Self.commentText(origin)) }
            if step.options.isEmpty && step.id == nil && step.settings.isEmpty {
                lines.append("  - " + step.kind)
                continue
            }
            lines.append("  - " + step.kind + ":" + (step.options.isEmpty ? " {}" : ""))
            for option in step.options { lines.append("      " + DraftValue.scalar(option.key) + ": " + option.value.yaml) }
            if let id = step.id { lines.append("    id: " + id) }
            for setting in step.settings { lines.append("    " + setting.key + ": " + setting.value.yaml) }
        }
        if !footer.isEmpty {
            lines.append("")
            lines.append(contentsOf: footer.map { "# " + Self.commentText($0) })
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
