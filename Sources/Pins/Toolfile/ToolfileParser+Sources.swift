import Basics
import Foundation
import YAMLSupport

extension ToolfileParser {
    /// The tool's source from its source key and the keys that belong to that kind.
    static func parseSource(_ kind: ToolSourceKind, _ fields: ToolFields,
                            into collector: inout DiagnosticCollector) -> ToolSource? {
        guard let node = fields[kind.rawValue] else { return nil }
        switch kind {
        case .git:
            guard let url = requiredText(node, what: "'git' of tool '\(fields.name)'", example: "https://github.com/owner/repo.git",
                                         into: &collector)
            else { return nil }
            let product = optionalText(fields["product"], what: "'product'", into: &collector) ?? fields.name
            return .git(url: url, product: product)
        case .system:
            let executable = node.text ?? fields.name
            if executable.contains("/") {
                collector.error("'system' of tool '\(fields.name)' must be an executable's name found on PATH, not a path",
                                at: node.location)
            }
            return .system(executable: executable)
        case .archive:
            return parseArchive(node, fields, into: &collector)
        }
    }

    private static func parseArchive(_ node: YAMLValue, _ fields: ToolFields,
                                     into collector: inout DiagnosticCollector) -> ToolSource? {
        guard let template = requiredText(node, what: "'archive' of tool '\(fields.name)'",
                                          example: "https://example.com/tool-{version}-{os}-{arch}.tar.gz", into: &collector)
        else { return nil }
        checkPlaceholders(template, at: node.location, into: &collector)
        if !ArchiveURLPolicy.allows(template) {
            collector.error("the archive URL of tool '\(fields.name)' is not an https:// or http:// URL: "
                            + "\(ArchiveURLPolicy.reason) \(ArchiveURLPolicy.remedy)", at: node.location)
        }
        if ArchiveUnpacker.format(of: template) == nil {
            collector.error("the archive URL of tool '\(fields.name)' must end in .tar.gz, .tgz or .zip, the formats "
                            + "Slipway unpacks", at: node.location)
        }
        let executable = optionalText(fields["executable"], what: "'executable'", into: &collector) ?? fields.name
        if executable.hasPrefix("/") || executable.split(separator: "/").contains("..") {
            collector.error("'executable' of tool '\(fields.name)' must be a path inside the archive, without '..' "
                            + "or a leading '/'", at: fields["executable"]?.location ?? fields.location)
        }
        let platforms = parsePlatforms(fields, into: &collector)
        let osNames = parseNames(fields["os-names"], key: "os-names", allowed: ToolPlatform.knownOS, into: &collector)
        let archNames = parseNames(fields["arch-names"], key: "arch-names", allowed: ToolPlatform.knownArch, into: &collector)
        return .archive(ArchiveSource(urlTemplate: template, executable: executable, platforms: platforms,
                                      osNames: osNames, archNames: archNames))
    }

    private static func checkPlaceholders(_ template: String, at location: SourceLocation,
                                          into collector: inout DiagnosticCollector) {
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let placeholder = String(rest[open...close])
            if !ArchiveSource.placeholders.contains(placeholder) {
                collector.error("unknown placeholder '\(placeholder)' in the archive URL; use "
                                + ArchiveSource.placeholders.joined(separator: ", "), at: location)
            }
            rest = rest[rest.index(after: close)...]
        }
    }

    private static func parsePlatforms(_ fields: ToolFields, into collector: inout DiagnosticCollector) -> [ToolPlatform] {
        let example = "platforms: [linux-x86_64, macos-arm64]"
        guard let node = fields["platforms"] else {
            collector.error("archive tool '\(fields.name)' needs 'platforms', the platforms its URL serves, e.g. "
                            + "'\(example)'", at: fields.location)
            return []
        }
        guard case .sequence(let items, _) = node, !items.isEmpty else {
            collector.error("'platforms' must be a non-empty list such as '\(example)'", at: node.location)
            return []
        }
        var platforms: [ToolPlatform] = []
        for item in items {
            if let text = item.text, let platform = ToolPlatform(text) {
                if !platforms.contains(platform) { platforms.append(platform) }
            } else {
                let text = item.text ?? ""
                collector.error("'\(text)' is not a platform.\(Suggestions.didYouMean(text, in: ToolPlatform.all)) "
                                + "Platforms are \(ToolPlatform.all.joined(separator: ", "))", at: item.location)
            }
        }
        return platforms
    }

    private static func parseNames(_ node: YAMLValue?, key: String, allowed: [String],
                                   into collector: inout DiagnosticCollector) -> [String: String] {
        guard let node else { return [:] }
        guard case .mapping(let entries, _) = node else {
            collector.error("'\(key)' must be a mapping such as { \(allowed[0]): name }, not \(node.toolfileKind)",
                            at: node.location)
            return [:]
        }
        var names: [String: String] = [:]
        for entry in entries {
            guard allowed.contains(entry.key.text) else {
                collector.error("'\(entry.key.text)' in '\(key)' is not one of \(allowed.joined(separator: ", "))", at: entry.key.location)
                continue
            }
            guard let value = entry.value.text else {
                collector.error("'\(key)' values must be texts", at: entry.value.location)
                continue
            }
            names[entry.key.text] = value
        }
        return names
    }

    static func requiredText(_ node: YAMLValue, what: String, example: String,
                             into collector: inout DiagnosticCollector) -> String? {
        guard case .scalar = node, let text = node.text, !text.isEmpty else {
            collector.error("\(what) must be a text such as '\(example)', not \(node.toolfileKind)", at: node.location)
            return nil
        }
        return text
    }

    static func optionalText(_ node: YAMLValue?, what: String, into collector: inout DiagnosticCollector) -> String? {
        guard let node else { return nil }
        guard case .scalar = node, let text = node.text, !text.isEmpty else {
            collector.error("\(what) must be a text, not \(node.toolfileKind)", at: node.location)
            return nil
        }
        return text
    }
}
