import Basics
import Foundation
import Lanes
import Steps
import Testing
import TestSupport
import TestThreads

/// The lane-level `tag-prefix` (issue 25, point 3): the default of every step that has the
/// option; a step that sets another value is refused (the binary's `validate` is tested in
/// ChangelogStyleCLITests).
@Suite(.dedicatedThreads) struct LaneTagPrefixTests {
    static let lane = """
        tag-prefix: release-
        steps:
          - version.bump: { version-file: VERSION }
            id: version
          - changelog.update: { version: "${{ steps.version.outputs.version }}", tag-prefix: "${{ env.PREFIX }}" }
            id: changelog
          - run: echo hello
        finally:
          - parallel:
              - changelog.update: { version: 1.0.0, path: OTHER.md }
                id: late
        """

    func invocation(_ id: String) throws -> StepInvocation {
        let lane = try LaneFileParser.parse(Self.lane, name: "release", file: "lanes/release.yml")
        #expect(lane.optionDefaults.map(\.name) == ["tag-prefix"])
        return try #require(lane.allInvocations.first { $0.id == id })
    }

    @Test func stepsWithoutTheOptionSetGetTheLanesValue() throws {
        let bump = try StepOptionsBuilder.build(try invocation("version"), description: VersionBumpStep.description) { _ in .null }
        #expect(try bump.string("tag-prefix") == "release-")
        let late = try StepOptionsBuilder.build(try invocation("late"), description: ChangelogUpdateStep.description) { _ in .null }
        #expect(try late.string("tag-prefix") == "release-", "finally steps in parallel groups get it too")
        let run = try StepOptionsBuilder.build(try invocation("run"), description: RunStep.description) { _ in .null }
        #expect(run.values["tag-prefix"] == nil, "a step without the option is left alone")
    }

    @Test func anExpressionThatEvaluatesToAnotherPrefixIsRefusedWhenTheStepRuns() throws {
        let changelog = try invocation("changelog")
        let agreeing = try StepOptionsBuilder.build(changelog, description: ChangelogUpdateStep.description) { _ in .string("release-") }
        #expect(try agreeing.string("tag-prefix") == "release-")
        #expect(throws: StepError.failed("step 'changelog' (changelog.update) sets tag-prefix 'v' at lanes/release.yml:5:74, but the lane "
            + "sets tag-prefix 'release-' at lanes/release.yml:1:1; steps of one lane must agree on it: remove the step's tag-prefix "
            + "to use the lane's, or change the lane's tag-prefix")) {
            try StepOptionsBuilder.build(changelog, description: ChangelogUpdateStep.description) { _ in .string("v") }
        }
    }
}
