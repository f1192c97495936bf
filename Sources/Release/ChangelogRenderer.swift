import Foundation
import Mustache

/// Renders a `ChangelogEntry` through a Mustache template (templates/changelog-entry.mustache
/// in Slipway's repository is the default, embedded here so an installed binary has it).
public struct ChangelogRenderer: Sendable {
    /// The default template. Keep in sync with templates/changelog-entry.mustache (a test checks).
    public static let defaultTemplate = """
        ## {{#compareURL}}[{{version}}]({{{compareURL}}}){{/compareURL}}{{^compareURL}}[{{version}}]{{/compareURL}} - {{date}}
        {{#sections}}

        ### {{title}}
        {{#items}}
        - {{#scope}}**{{{scope}}}:** {{/scope}}{{{description}}} ({{#url}}[{{shortHash}}]({{{url}}}){{/url}}{{^url}}{{shortHash}}{{/url}})
        {{/items}}
        {{/sections}}
        {{^sections}}

        No user-facing changes.
        {{/sections}}

        """

    private let template: MustacheTemplate
    private let name: String
    /// True when the template is `defaultTemplate`, which `renderDefault` writes out directly.
    private let isDefault: Bool

    /// A renderer for `text` (named `name` in errors); throws `ReleaseError.invalidTemplate`.
    /// Templates over `TemplateBudget`'s size or nesting limits are refused before parsing.
    public init(template text: String = ChangelogRenderer.defaultTemplate, name: String = "default") throws {
        try TemplateBudget.check(text, name: name)
        do {
            template = try MustacheTemplate(string: text)
        } catch {
            throw ReleaseError.invalidTemplate(name, reason: String(describing: error))
        }
        self.name = name
        isDefault = text == Self.defaultTemplate
    }

    /// The entry as Markdown.
    public func render(_ entry: ChangelogEntry) -> String {
        if isDefault { return Self.renderDefault(entry) }
        // Absent values are left out of the context (an Optional in it would render as "nil").
        var context: [String: Any] = ["version": entry.version, "date": entry.date]
        context["compareURL"] = entry.compareURL
        context["sections"] = entry.sections.map { section -> [String: Any] in
            ["title": section.title, "items": section.items.map { item -> [String: Any] in
                var values: [String: Any] = ["description": item.description, "shortHash": item.shortHash]
                values["scope"] = item.scope
                values["url"] = item.url
                return values
            }]
        }
        return template.render(context)
    }

    /// What Mustache renders from `defaultTemplate`, byte for byte (a test compares the two on
    /// varied entries), written out in Swift: Mustache looks every name up through dynamic
    /// casts, which took a quarter of `slipway changelog`'s time over 10,000 commits.
    static func renderDefault(_ entry: ChangelogEntry) -> String {
        var text = ""
        text.reserveCapacity(128 + entry.sections.reduce(0) { $0 + 24 + $1.items.count * 160 })
        text += heading(entry) + "\n"
        for section in entry.sections {
            text += "\n### " + escaped(section.title) + "\n"
            for item in section.items {
                text += "- "
                if let scope = item.scope { text += "**" + scope + ":** " }
                text += item.description + " ("
                if let url = item.url {
                    text += "[" + escaped(item.shortHash) + "](" + url + ")"
                } else {
                    text += escaped(item.shortHash)
                }
                text += ")\n"
            }
        }
        if entry.sections.isEmpty { text += "\nNo user-facing changes.\n" }
        return text
    }

    /// The default template's heading line, `## [1.2.0](compare URL) - 2026-12-02`.
    public static func heading(_ entry: ChangelogEntry) -> String {
        var text = "## [" + escaped(entry.version) + "]"
        if let compareURL = entry.compareURL { text += "(" + compareURL + ")" }
        return text + " - " + escaped(entry.date)
    }

    /// Mustache's HTML escaping of `{{name}}` values.
    static func escaped(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&")
            || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }) else { return value }
        var result = ""
        for character in value {
            switch character {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
