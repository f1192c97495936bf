@testable import Release
import Testing
import TestThreads

/// A changelog template from the checkout cannot take the process down: size and section nesting
/// are checked before swift-mustache (which recurses per section) sees it.
@Suite(.dedicatedThreads) struct TemplateBudgetTests {
    static func nested(_ depth: Int, open: String = "{{", close: String = "}}") -> String {
        String(repeating: "\(open)#a\(close)", count: depth) + "x" + String(repeating: "\(open)/a\(close)", count: depth)
    }

    @Test func deepNestingIsRefusedBeforeParsing() {
        #expect(throws: ReleaseError.invalidTemplate(
            "t.mustache", reason: "its sections nest more than 32 deep; templates may nest at most 32")) {
            _ = try ChangelogRenderer(template: Self.nested(20_000), name: "t.mustache")
        }
        #expect(throws: ReleaseError.invalidTemplate(
            "t.mustache", reason: "its sections nest more than 32 deep; templates may nest at most 32")) {
            _ = try ChangelogRenderer(template: String(repeating: "{{^b}}", count: 33), name: "t.mustache")
        }
    }

    @Test func changedDelimitersDoNotHideSections() {
        #expect(throws: ReleaseError.invalidTemplate(
            "t.mustache", reason: "its sections nest more than 32 deep; templates may nest at most 32")) {
            _ = try ChangelogRenderer(template: "{{=<% %>=}}" + Self.nested(40, open: "<%", close: "%>"), name: "t.mustache")
        }
    }

    @Test func sizeIsBounded() {
        let big = String(repeating: "x", count: 300_000)
        #expect(throws: ReleaseError.invalidTemplate("t.mustache", reason: "it is 2400001 bytes; templates may have at most 262144")) {
            _ = try ChangelogRenderer(template: Self.nested(200_000), name: "t.mustache")
        }
        #expect(throws: ReleaseError.invalidTemplate("t.mustache", reason: "it is 300000 bytes; templates may have at most 262144")) {
            _ = try ChangelogRenderer(template: big, name: "t.mustache")
        }
    }

    @Test func realTemplatesStillRender() throws {
        _ = try ChangelogRenderer(template: Self.nested(32), name: "t.mustache")
        _ = try ChangelogRenderer(template: ChangelogRenderer.defaultTemplate)
        let sequential = String(repeating: "{{#a}}x{{/a}}", count: 1000)
        _ = try ChangelogRenderer(template: sequential, name: "t.mustache")
    }

    /// swift-mustache measures the rest of the template at every '{': 261 KB of `{{\n` took 42 s.
    /// The product is counted in one pass before parsing; the check itself is linear.
    @Test func manyOpeningsInALargeTemplateAreRefusedBeforeParsing() {
        let hostile = String(repeating: "{{\n", count: 87_381)    // 262,143 bytes, inside the size limit
        #expect(throws: ReleaseError.invalidTemplate(
            "t.mustache", reason: "Mustache's parser reads the rest of the template at each '{', and its first 174762 would have "
                + "it read 45812984490 bytes; templates may cost at most 134217728: use fewer tags or a shorter template")) {
            _ = try ChangelogRenderer(template: hostile, name: "t.mustache")
        }
        // Changed delimiters are followed: their first character is what the parser looks for.
        #expect(throws: ReleaseError.invalidTemplate(
            "t.mustache", reason: "Mustache's parser reads the rest of the template at each '<', and its first 87379 would have "
                + "it read 22905531084 bytes; templates may cost at most 134217728: use fewer tags or a shorter template")) {
            _ = try ChangelogRenderer(template: "{{=<% %>=}}" + String(repeating: "<%\n", count: 87_377), name: "t.mustache")
        }
    }

    @Test func manyTagsInASmallTemplateStillRender() throws {
        let tags = String(repeating: "{{a}} ", count: 2_000)    // 12 KB, 4,000 '{'
        _ = try ChangelogRenderer(template: tags, name: "t.mustache")
        let text = String(repeating: "x", count: 250_000) + "{{a}}"    // a large template with few tags
        _ = try ChangelogRenderer(template: text, name: "t.mustache")
    }
}
