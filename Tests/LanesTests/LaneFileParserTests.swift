import Basics
import Foundation
import Lanes
import Testing
import TestThreads

@Suite(.dedicatedThreads) struct LaneFileParserTests {
    func problems(_ text: String) -> [String] {
        do {
            _ = try LaneFileParser.parse(text, name: "t", file: "lanes/t.yml")
            return []
        } catch let error as DiagnosticsError {
            return error.diagnostics.filter { $0.severity == .error }.map(\.description)
        } catch {
            return ["unexpected: \(error)"]
        }
    }

    @Test func malformedYAMLNamesLineAndColumn() {
        let found = problems("steps:\n  - run: \"unterminated\n  - run: x\n")
        #expect(found.count == 1)
        #expect((found.first ?? "").hasPrefix("lanes/t.yml:"), "\(found)")
        #expect((found.first ?? "").contains("invalid YAML"))
        let bad = problems("steps:\n  - run: a\n   - run: b\n")
        #expect(bad.first?.hasPrefix("lanes/t.yml:3:") == true, "\(bad)")
    }

    @Test func listOrScalarAtTopLevelIsRefused() {
        #expect(problems("- run: a\n") == ["lanes/t.yml:1:1: error: a lane file must be a mapping with 'steps:' (and optionally description, inputs, secrets, env, finally), but this is a list"])
        #expect(problems("just words\n") == ["lanes/t.yml:1:1: error: a lane file must be a mapping with 'steps:' (and optionally description, inputs, secrets, env, finally), but this is a string"])
    }

    @Test func emptyFileIsRefused() {
        #expect(problems("") == ["lanes/t.yml:1:1: error: the lane file is empty; it needs at least 'steps:' (run 'slipway init' for an example)"])
    }

    @Test func unknownTopLevelKeySuggestsTheNearest() {
        let found = problems("description: x\nstep:\n  - run: a\nsteps:\n  - run: b\n")
        #expect(found == ["lanes/t.yml:2:1: error: unknown key 'step' in lane file. Did you mean 'steps'? Allowed: description, inputs, secrets, env, requires, ci-jobs, steps, finally, tag-prefix"])
    }

    @Test func duplicateExplicitStepIDs() {
        let found = problems("steps:\n  - run: a\n    id: x\n  - run: b\n    id: x\n")
        #expect(found == ["lanes/t.yml:4:5: error: duplicate step id 'x' (first used at 2:5); step ids must be unique"])
    }

    @Test func derivedIDsAreNumbered() throws {
        let lane = try LaneFileParser.parse("steps:\n  - run: a\n  - run: b\n  - run: c\n    id: run-2\n", name: "t", file: "t.yml")
        #expect(lane.allInvocations.map(\.id) == ["run", "run-3", "run-2"])
    }

    @Test func stepKeysAreTyped() {
        let found = problems("""
            steps:
              - run: a
                timeout: soon
                retry: many
                continue-on-error: maybe
            """)
        #expect(found.count == 3)
        #expect((found.first ?? "") == "lanes/t.yml:3:14: error: 'timeout' must be a duration such as 30s, 5m or 1h, but it is 'soon'")
        #expect((found.dropFirst().first ?? "").hasPrefix("lanes/t.yml:4:12: error: 'retry' must be a number of retries"))
        #expect((found.dropFirst(2).first ?? "") == "lanes/t.yml:5:24: error: 'continue-on-error' must be true or false, but it is a string")
    }

    @Test func twoKindsInOneEntry() {
        let found = problems("steps:\n  - run: a\n    swift.test: {}\n")
        #expect(found.count == 1)
        #expect((found.first ?? "").contains("a step entry names one step kind, but this one has 'run', 'swift.test'"))
    }

    @Test func inputsAreTypedWithChoices() throws {
        let lane = try LaneFileParser.parse("""
            inputs:
              bump: { default: auto, choices: [auto, major] }
              count: 3
              flag: { type: bool, default: false }
              name: { type: string }
            steps:
              - run: a
            """, name: "t", file: "t.yml")
        #expect(lane.inputs.map(\.type) == [.string, .int, .bool, .string])
        #expect(lane.inputs.map(\.isRequired) == [false, false, false, true])
        let bad = problems("inputs:\n  bump: { default: huge, choices: [auto, major] }\nsteps:\n  - run: a\n")
        #expect(bad == ["lanes/t.yml:2:9: error: input 'bump' default: 'huge' is not one of auto, major"])
    }
}
