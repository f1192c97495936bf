import Foundation
import Release
import Testing
import TestSupport
import TestThreads

@Suite(.dedicatedThreads) struct ChangelogTests {
    static let commits: [(message: String, hash: String)] = [
        ("feat(lanes): resume after failure", "a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0"),
        ("fix: keep secrets out of JUnit", "b1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0"),
        ("feat!: rename option\n\nBREAKING CHANGE: 'file' is now 'path'", "c1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0"),
        ("perf: faster writer", "d1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0"),
        ("docs: typo", "e1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0"),
        ("Merge pull request #3", "f1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0"),
    ]

    @Test func groupsRendersAndLinks() throws {
        let links = RepositoryLinks(remoteURL: "git@github.com:acme/tool.git")
        #expect(links?.base == "https://github.com/acme/tool")
        let entry = ChangelogEntry(version: "2.0.0", date: "2026-11-21", commits: Self.commits, links: links,
                                   previousTag: "v1.4.0", tag: "v2.0.0")
        #expect(entry.sections.map(\.title) == ["Breaking", "Added", "Fixed", "Changed"])
        let text = try ChangelogRenderer().render(entry)
        #expect(text == """
            ## [2.0.0](https://github.com/acme/tool/compare/v1.4.0...v2.0.0) - 2026-11-21

            ### Breaking
            - 'file' is now 'path' ([c1b2c3d](https://github.com/acme/tool/commit/c1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0))

            ### Added
            - **lanes:** resume after failure ([a1b2c3d](https://github.com/acme/tool/commit/a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0))
            - rename option ([c1b2c3d](https://github.com/acme/tool/commit/c1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0))

            ### Fixed
            - keep secrets out of JUnit ([b1b2c3d](https://github.com/acme/tool/commit/b1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0))

            ### Changed
            - faster writer ([d1b2c3d](https://github.com/acme/tool/commit/d1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0))

            """)
    }

    @Test func theBuiltInRendererMatchesMustacheOnTheDefaultTemplate() throws {
        let builtIn = try ChangelogRenderer()
        // Any other text goes through Mustache; a comment renders nothing.
        let mustache = try ChangelogRenderer(template: ChangelogRenderer.defaultTemplate + "{{! through Mustache }}")
        let hash = "0123456789abcdef0123456789abcdef01234567"
        let odd: [(message: String, hash: String)] = Self.commits + [
            ("feat(a&b): <tag> & \"quotes\" 'apostrophes'", hash),
            ("fix(ünï): ünïcode — dashes", hash),
            ("feat!: breaking without a footer", hash),
            ("revert: undo <b>", hash),
        ]
        let github = RepositoryLinks(remoteURL: "git@github.com:acme/tool.git")
        let entries = [
            ChangelogEntry(version: "2.0.0", date: "2026-11-21", commits: odd, links: github, previousTag: "v1.4.0", tag: "v2.0.0"),
            ChangelogEntry(version: "2.0.0-rc.1+build.5", date: "2026-11-21", commits: odd, links: nil, previousTag: nil, tag: "v2.0.0-rc.1"),
            ChangelogEntry(version: "2.0.0", date: "2026-11-21", commits: odd, links: github, previousTag: nil, tag: "v2.0.0"),
            ChangelogEntry(version: "1.0.1", date: "2026-11-21", commits: [("docs: only docs", hash)], links: nil, previousTag: "v1.0.0", tag: "v1.0.1"),
            ChangelogEntry(version: "1.0.1", date: "2026-11-21", commits: [], links: github, previousTag: "v1.0.0", tag: "v1.0.1"),
            ChangelogEntry(version: "<1&2>", date: "'\"", commits: [("fix: x", "<&>\"'")], links: nil, previousTag: nil, tag: "v"),
        ]
        for entry in entries {
            #expect(builtIn.render(entry) == mustache.render(entry))
        }
    }

    @Test func daysAreUTCDatesAsDateFormatterWritesThem() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        var seconds: [Double] = [0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_400, -2_208_988_800, 1_700_000_000.5, 253_402_300_799]
        var state: UInt64 = 42
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            seconds.append(Double(state >> 31 % 8_000_000_000) - 2_000_000_000)
        }
        for value in seconds {
            let date = Date(timeIntervalSince1970: value)
            #expect(ReleasePlanner.day(date) == formatter.string(from: date), "\(value)")
        }
    }

    @Test func linksDropCredentialsAndRefuseLocalPaths() {
        #expect(RepositoryLinks(remoteURL: "https://x-access-token:abc@github.com/acme/tool.git")?.base == "https://github.com/acme/tool")
        #expect(RepositoryLinks(remoteURL: "/srv/git/tool.git") == nil)
        #expect(RepositoryLinks(remoteURL: "file:///srv/git/tool.git") == nil)
    }

    @Test func insertsBelowUnreleasedMergingHandWrittenNotes() throws {
        let file = ChangelogFile(text: """
            # Changelog

            ## [Unreleased]

            ### Added
            - A hand-written note.

            ### Security
            - Bumped a dependency.

            ## [1.4.0] - 2026-10-01
            - old
            """, path: "CHANGELOG.md")
        let entry = "## [2.0.0] - 2026-11-21\n\n### Added\n- generated (abc1234)\n\n### Fixed\n- fix (def5678)\n"
        let updated = try file.inserting(entry, version: "2.0.0")
        #expect(updated == """
            # Changelog

            ## [Unreleased]

            ## [2.0.0] - 2026-11-21

            ### Added
            - generated (abc1234)
            - A hand-written note.

            ### Fixed
            - fix (def5678)

            ### Security
            - Bumped a dependency.

            ## [1.4.0] - 2026-10-01
            - old
            """)
        #expect(try ChangelogFile(text: updated, path: "CHANGELOG.md").inserting(entry, version: "2.0.0") == updated, "idempotent")
        #expect(throws: ReleaseError.noUnreleasedSection(file: "C.md")) {
            try ChangelogFile(text: "# Changelog\n", path: "C.md").inserting(entry, version: "2.0.0")
        }
    }

    @Test func theRepositoryTemplateIsTheDefault() throws {
        let file = try String(contentsOfFile: Corpus.repositoryRoot + "/templates/changelog-entry.mustache", encoding: .utf8)
        #expect(file == ChangelogRenderer.defaultTemplate)
    }
}
