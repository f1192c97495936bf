import Basics
import Foundation
import Git

extension ReleasePlanner {
    /// A changelog entry, the style it was made in and why, and what else the reader should know.
    public struct StyledEntry: Sendable {
        /// The entry.
        public var entry: ChangelogEntry
        /// The style used, and why.
        public var choice: ChangelogStyleChoice
        /// Notes for the log or standard error, e.g. commits the style left out.
        public var notes: [String]
    }

    /// The changelog entry for `version` in `style` (`auto`: detected from the commits, see
    /// `ChangelogStyleChoice.detect`).
    /// - Parameters:
    ///   - source: where the style was set when it is not `auto`, e.g. "--style" (for the reason).
    ///   - merges: which commits the `subjects` style lists; nil: the default, `exclude`. Given
    ///     with `auto` and another style detected, a note says it did not apply.
    public func entry(for version: SemanticVersion, state: State, style: ChangelogStyle, source: String,
                      merges: MergeCommits? = nil, date: Date = Date()) -> StyledEntry {
        let choice = style == .auto
            ? ChangelogStyleChoice.detect(commits: state.commits, conventional: state.conventional, previousTag: state.previousTag)
            : ChangelogStyleChoice(style: style, setWith: source)
        let tag = state.tagPrefix + state.written(version)
        let day = Self.day(date)
        var notes: [String] = []
        let entry: ChangelogEntry
        switch choice.style {
        case .subjects:
            entry = .subjects(version: state.written(version), date: day, commits: state.commits, merges: merges ?? .exclude,
                              links: state.links, previousTag: state.previousTag, tag: tag)
        case .pullRequests:
            let made = ChangelogEntry.pullRequests(version: state.written(version), date: day, commits: state.commits,
                                                   links: state.links, previousTag: state.previousTag, tag: tag)
            entry = made.entry
            if !made.leftOut.isEmpty {
                let listed = made.leftOut.prefix(3).map { "\($0.oid.short) '\($0.summary)'" }.joined(separator: ", ")
                let more = made.leftOut.count > 3 ? ", …" : ""
                notes.append("\(made.leftOut.count) first-parent commit\(made.leftOut.count == 1 ? " is" : "s are") not "
                    + "\(made.leftOut.count == 1 ? "a pull request" : "pull requests") and left out (\(listed)\(more)); "
                    + "use style subjects to list every commit")
            }
        case .conventional, .auto:
            entry = self.entry(for: version, state: state, date: date)
        case .unreleased:
            // The section is what was written by hand (`ChangelogFile.releasingUnreleased`);
            // no commit is listed.
            entry = ChangelogEntry(version: state.written(version), date: day,
                                   compareURL: state.previousTag.flatMap { state.links?.compare(from: $0, to: tag) }, sections: [])
        }
        if let merges, choice.style != .subjects {
            notes.append("merge-commits: \(merges.rawValue) applies to the subjects style only, and the style is \(choice.style.rawValue)")
        }
        return StyledEntry(entry: entry, choice: choice, notes: notes)
    }
}
