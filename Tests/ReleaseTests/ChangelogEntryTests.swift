import Release
import Testing
import TestThreads

@Suite("Reading a version's changelog entry", .dedicatedThreads)
struct ChangelogEntryTests {
    static let text = """
        # Changelog

        ## [Unreleased]

        ## [1.2.0] - 2025-01-01
        ### Added
        - Offline mode.

        ## [v1.1.0]
        - Older.

        [1.2.0]: https://example.com/compare/v1.1.0...v1.2.0
        """

    @Test func theEntryBodyWithoutHeadingOrLinks() {
        let file = ChangelogFile(text: Self.text, path: "CHANGELOG.md")
        #expect(file.entry(version: "1.2.0") == "### Added\n- Offline mode.")
        #expect(file.entry(version: "v1.1.0") == "- Older.")
        #expect(file.entry(version: "1.1.0") == "- Older.")
        #expect(file.entry(version: "1.0.0") == nil)
        #expect(file.entry(version: "Unreleased") == nil)
    }
}
