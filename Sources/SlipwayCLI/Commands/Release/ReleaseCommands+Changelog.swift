import ArgumentParser
import Basics
import Foundation
import Release

extension ChangelogCommand {
    /// What `--format` can be.
    enum Format: String, CaseIterable {
        case markdown, text
    }

    /// `--style`, `--merge-commits` and `--format`, checked.
    func parsedChoices() throws -> (style: ChangelogStyle, merges: MergeCommits?, format: Format) {
        if self.style == ChangelogStyle.unreleased.rawValue {
            // The command previews a section made from commits; the notes under Unreleased are
            // already in the file, and the step moves them.
            throw ReleaseError.optionsConflict("--style unreleased releases the notes written under '## [Unreleased]', which "
                + "CHANGELOG.md already shows as they will be; it is the changelog.update step's style. This command previews "
                + "sections made from commits: use --style auto, conventional, subjects or pull-requests")
        }
        let style = try ChangelogStyle(parsing: self.style, option: "--style", allowed: ChangelogStyle.fromCommits)
        let merges = try mergeCommits.map { try MergeCommits(parsing: $0, option: "--merge-commits") }
        if merges != nil, style != .auto, style != .subjects {
            throw ReleaseError.optionsConflict("--merge-commits applies to --style subjects only, not --style \(style.rawValue); "
                                  + "remove --merge-commits or use --style subjects")
        }
        guard let format = Format(rawValue: self.format) else {
            throw ReleaseError.invalidChoice(option: "--format", value: self.format, allowed: Format.allCases.map(\.rawValue))
        }
        return (style, merges, format)
    }
}

/// What `slipway changelog` prints: the section on standard output; the style, why, and notes
/// on standard error (or everything as one JSON object with `--json`).
struct ChangelogOutput {
    let version: ReleasePlanner.NextVersion
    let styled: ReleasePlanner.StyledEntry
    let markdown: String

    var text: String { ChangelogRenderer.plainText(styled.entry) }

    /// The `--json` object.
    struct Payload: Encodable {
        var version: String
        var style: String
        var detected: Bool
        var reason: String
        var notes: [String]
        var markdown: String
        var text: String
    }

    var payload: Payload {
        Payload(version: styled.entry.version, style: styled.choice.style.rawValue, detected: styled.choice.isDetected,
                reason: styled.choice.reason, notes: [version.note].compactMap { $0 } + styled.notes, markdown: markdown, text: text)
    }

    func write(to env: CommandEnvironment, json asJSON: Bool, format: ChangelogCommand.Format) throws {
        if asJSON {
            env.print(String(decoding: try JSONFormatting.encoder().encode(payload), as: UTF8.self))
            return
        }
        // Commit subjects, tags and bodies come from the repository: their control characters are
        // shown escaped, never acted on (JSON above keeps them, escaped by the encoder).
        if let note = version.note { env.standardError.write(env.style.paint("note: ", .yellow) + note.displaySafe + "\n") }
        var line = "changelog style: \(DisplayText.untrusted(String(describing: styled.choice)))"
        if styled.choice.isDetected { line += "; choose one with --style" }
        env.standardError.write(line + "\n")
        for note in styled.notes { env.standardError.write(env.style.paint("note: ", .yellow) + note.displaySafe + "\n") }
        env.standardOutput.write(DisplayText.untrustedLines(format == .text ? text : markdown))
    }
}
