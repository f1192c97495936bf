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
}
