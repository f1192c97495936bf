/// A changelog entry as plain text, for fields that show no Markdown, such as TestFlight's
/// What to Test.
extension ChangelogRenderer {
    /// The entry's items as `- description` lines (with `scope: ` before a conventional item's
    /// description), under `Title:` lines when the entry has more than one section; no
    /// version heading, hashes or links. "No user-facing changes." when it has no items.
    public static func plainText(_ entry: ChangelogEntry) -> String {
        guard !entry.sections.isEmpty else { return "No user-facing changes.\n" }
        var text = ""
        for (index, section) in entry.sections.enumerated() {
            if entry.sections.count > 1 {
                if index > 0 { text += "\n" }
                text += section.title + ":\n"
            }
            for item in section.items {
                text += "- " + (item.scope.map { $0 + ": " } ?? "") + item.description + "\n"
            }
        }
        return text
    }

    /// Keep a Changelog's preamble for a new CHANGELOG.md, ending with an empty
    /// `## [Unreleased]` section, into which `ChangelogFile.inserting` puts the first entry.
    public static let keepAChangelogSkeleton = """
        # Changelog

        All notable changes to this project are documented in this file.

        The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/),
        and this project adheres to [Semantic Versioning](https://semver.org/spec/v2.0.0.html).

        ## [Unreleased]

        """
}
