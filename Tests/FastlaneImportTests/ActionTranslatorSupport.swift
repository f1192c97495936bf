@testable import FastlaneImport
import Testing
import Xcode

/// Translates one lane made of `body` (one Ruby statement per line) with the survey of
/// FastlaneTranslatorTests; the lane, its listed lines as `what: reason`, and its differences.
struct ActionCase {
    let lane: FastlaneTranslation.Lane

    init(_ body: String, appfile: String? = nil, matchfile: String? = nil, platform: String? = nil,
         survey: XcodeProjectSurvey = FastlaneTranslatorTests.survey, before: String = "") throws {
        let indented = body.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        var source = "lane :release do\n\(indented)\nend\n"
        if let platform { source = "platform :\(platform) do\n\(source)end\n" }
        let translation = FastlaneTranslator(fastfile: try Fastfile(source: before + source, path: "fastlane/Fastfile"),
                                             appfile: try appfile.map { try FastlaneSettings(source: $0, path: "fastlane/Appfile") },
                                             matchfile: try matchfile.map { try FastlaneSettings(source: $0, path: "fastlane/Matchfile") },
                                             survey: survey).translate()
        lane = try #require(translation.lanes.first)
    }

    var steps: [DraftStep] { lane.draft.steps }
    var kinds: [String] { steps.map(\.kind) }
    /// `what: reason` of each listed item.
    var listed: [String] { lane.untranslated.map { "\($0.what): \($0.reason)" } }
    var differences: [String] { lane.differences }

    func step(_ kind: String) throws -> DraftStep { try #require(steps.first { $0.kind == kind }) }
}
