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

    /// A renderer for `text` (named `name` in errors); throws `ReleaseError.invalidTemplate`.
    public init(template text: String = ChangelogRenderer.defaultTemplate, name: String = "default") throws {
        do {
            template = try MustacheTemplate(string: text)
        } catch {
            throw ReleaseError.invalidTemplate(name, reason: String(describing: error))
        }
        self.name = name
    }

    /// The entry as Markdown.
    public func render(_ entry: ChangelogEntry) -> String {
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
}
