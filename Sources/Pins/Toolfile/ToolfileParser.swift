import Basics
import Foundation
import YAMLSupport

/// Reads a Toolfile (YAML) into a `Toolfile`, reporting every problem at once with its line
/// and column.
///
/// ```yaml
/// tools:
///   swiftlint:
///     git: https://github.com/realm/SwiftLint.git
///     version: ^0.57
///   swiftformat:
///     archive: https://example.com/swiftformat-{version}-{os}-{arch}.tar.gz
///     executable: bin/swiftformat
///     platforms: [linux-x86_64, macos-arm64]
///     version: 0.54.6
///   git:
///     system: git
///     version: ">=2.30, <3"
///     version-regex: 'git version (\S+)'
/// ```
public enum ToolfileParser {
    /// The keys a tool's entry may have, by source kind.
    static let commonKeys = ["version", "version-args", "version-regex"]
    static let keysBySource: [ToolSourceKind: [String]] = [
        .git: ["product"],
        .archive: ["executable", "platforms", "os-names", "arch-names"],
        .system: [],
    ]

    /// Parses Toolfile text; `file` is the name used in diagnostics.
    /// - Throws: `DiagnosticsError` listing every problem with `file:line:column`.
    public static func parse(_ text: String, file: String) throws -> Toolfile {
        guard let root = try ToolfileYAML.reader.parse(text, file: file) else {
            throw DiagnosticsError([Diagnostic(at: SourceLocation(file: file, line: 1, column: 1),
                                               "the Toolfile is empty; list the tools under 'tools:' (see docs/pins.md)")])
        }
        var collector = DiagnosticCollector()
        var tools: [ToolSpec] = []
        guard case .mapping(let entries, _) = root else {
            collector.error("the Toolfile must be a mapping with a 'tools:' key, not \(root.toolfileKind)", at: root.location)
            try collector.throwIfErrors()
            return Toolfile(file: file, tools: [])
        }
        for entry in entries where entry.key.text != "tools" {
            collector.error("unknown key '\(entry.key.text)' at the top of the Toolfile; the only key is 'tools'", at: entry.key.location)
        }
        if let toolsEntry = entries.first(where: { $0.key.text == "tools" }) {
            tools = parseTools(toolsEntry.value, into: &collector)
        } else {
            collector.error("the Toolfile has no 'tools:' key; list the tools under it", at: root.location)
        }
        try collector.throwIfErrors()
        return Toolfile(file: file, tools: tools)
    }

    private static func parseTools(_ node: YAMLValue, into collector: inout DiagnosticCollector) -> [ToolSpec] {
        if node.text == nil, case .scalar = node { return [] }
        guard case .mapping(let entries, _) = node else {
            collector.error("'tools' must be a mapping from tool names to their settings, not \(node.toolfileKind)",
                            at: node.location)
            return []
        }
        var tools: [ToolSpec] = []
        for entry in entries {
            if !isValidName(entry.key.text) {
                collector.error("'\(entry.key.text)' is not a usable tool name; use letters, digits, '.', '-' and '_' "
                                + "(it names a folder in the tools cache)", at: entry.key.location)
                continue
            }
            if let tool = parseTool(name: entry.key.text, at: entry.key.location, entry.value, into: &collector) {
                tools.append(tool)
            }
        }
        return tools
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)
        }
    }

    private static func parseTool(name: String, at location: SourceLocation, _ node: YAMLValue,
                                  into collector: inout DiagnosticCollector) -> ToolSpec? {
        guard case .mapping(let entries, let mappingLocation) = node else {
            collector.error("tool '\(name)' must be a mapping with a source (git, archive or system) and a version, "
                            + "not \(node.toolfileKind)", at: node.location)
            return nil
        }
        let fields = ToolFields(name: name, entries: entries, location: mappingLocation)
        guard let kind = sourceKind(of: fields, into: &collector) else { return nil }
        checkKeys(of: fields, kind: kind, into: &collector)
        let source = parseSource(kind, fields, into: &collector)
        let constraint = parseConstraint(fields, into: &collector)
        let arguments = parseVersionArguments(fields, into: &collector)
        let pattern = parsePattern(fields, into: &collector)
        guard let source, let constraint, let arguments else { return nil }
        if case .archive = source, constraint.exactVersion == nil, let node = fields["version"] {
            collector.error(PinsError.archiveNeedsExactVersion(tool: name, constraint: constraint.text).errorText,
                            at: node.location)
        }
        return ToolSpec(name: name, source: source, constraint: constraint, versionArguments: arguments,
                        versionPattern: pattern, location: location)
    }

    /// The one source key of a tool, with errors for none, several, or an unknown kind.
    private static func sourceKind(of fields: ToolFields, into collector: inout DiagnosticCollector) -> ToolSourceKind? {
        let present = ToolSourceKind.allCases.filter { fields[$0.rawValue] != nil }
        if present.count > 1 {
            collector.error("tool '\(fields.name)' has several sources (\(present.map(\.rawValue).joined(separator: ", "))); "
                            + "keep exactly one", at: fields.location)
            return nil
        }
        if let kind = present.first { return kind }
        let known = Set(commonKeys + keysBySource.values.flatMap { $0 })
        if let unknown = fields.entries.first(where: { !known.contains($0.key.text) }) {
            collector.error("tool '\(fields.name)' has an unknown source kind '\(unknown.key.text)'.\(Suggestions.didYouMean(unknown.key.text, in: ToolSourceKind.allCases.map(\.rawValue))) "
                            + "A source is one of: git (a repository URL, built with swift build), archive (a "
                            + "download URL) or system (found on PATH)", at: unknown.key.location)
        } else {
            collector.error("tool '\(fields.name)' has no source; add one of 'git: URL', 'archive: URL' or 'system: NAME'",
                            at: fields.location)
        }
        return nil
    }

    private static func checkKeys(of fields: ToolFields, kind: ToolSourceKind, into collector: inout DiagnosticCollector) {
        let allowed = [kind.rawValue] + commonKeys + (keysBySource[kind] ?? [])
        for entry in fields.entries where !allowed.contains(entry.key.text) {
            let elsewhere = keysBySource.first { $0.value.contains(entry.key.text) }?.key
            let hint = elsewhere.map { " ('\(entry.key.text)' belongs to \($0.rawValue) tools)" }
                ?? Suggestions.didYouMean(entry.key.text, in: allowed)
            collector.error("tool '\(fields.name)' has an unknown key '\(entry.key.text)'\(hint.hasPrefix(" (") ? hint + "." : "." + hint) "
                            + "Its keys are: \(allowed.joined(separator: ", "))", at: entry.key.location)
        }
    }

    private static func parseConstraint(_ fields: ToolFields, into collector: inout DiagnosticCollector) -> VersionConstraint? {
        guard let node = fields["version"] else {
            collector.error("tool '\(fields.name)' has no 'version'; add a constraint such as 'version: ^1.2'", at: fields.location)
            return nil
        }
        guard let text = node.text, case .scalar = node else {
            collector.error("'version' of tool '\(fields.name)' must be a text such as '^1.2', not \(node.toolfileKind)",
                            at: node.location)
            return nil
        }
        do {
            return try VersionConstraint.parse(text)
        } catch {
            collector.error("tool '\(fields.name)': \(errorText(error))", at: node.location)
            return nil
        }
    }

    private static func parseVersionArguments(_ fields: ToolFields, into collector: inout DiagnosticCollector) -> [String]? {
        guard let node = fields["version-args"] else { return ["--version"] }
        switch node {
        case .scalar:
            return node.text.map { [$0] } ?? []
        case .sequence(let items, _):
            var arguments: [String] = []
            for item in items {
                guard let text = item.text, case .scalar = item else {
                    collector.error("each of 'version-args' must be a text, not \(item.toolfileKind)", at: item.location)
                    return nil
                }
                arguments.append(text)
            }
            return arguments
        case .mapping:
            collector.error("'version-args' must be a list of arguments such as [--version], not a mapping", at: node.location)
            return nil
        }
    }

    private static func parsePattern(_ fields: ToolFields, into collector: inout DiagnosticCollector) -> String? {
        guard let node = fields["version-regex"] else { return nil }
        guard let pattern = node.text, case .scalar = node else {
            collector.error("'version-regex' must be a regular expression, not \(node.toolfileKind)", at: node.location)
            return nil
        }
        if (try? NSRegularExpression(pattern: pattern)) == nil {
            collector.error("'version-regex' of tool '\(fields.name)' is not a valid regular expression: '\(pattern)'",
                            at: node.location)
        }
        return pattern
    }
}

/// A tool's mapping entries with lookup by key.
struct ToolFields {
    let name: String
    let entries: [YAMLEntry]
    let location: SourceLocation

    subscript(key: String) -> YAMLValue? {
        entries.first { $0.key.text == key }?.value
    }
}

extension Error {
    /// The user-facing text of the error.
    var errorText: String { Basics.errorText(self) }
}
