import Basics
import Foundation
import Lanes
import Steps
import Testing
import TestThreads

@Suite(.dedicatedThreads) struct LaneValidatorTests {
    @Test func everyProblemIsReportedAtOnce() async throws {
        let fixture = try LaneFixture(["release": """
            inputs:
              bump: { default: auto }
            secrets: [TOKEN]
            steps:
              - swift.tset
              - run: { command: "echo ${{ inputs.bumpp }}", colour: red }
              - swift.build: { configuration: fast }
              - swift.test: { parallel: "yes" }
              - run: echo ${{ secrets.TOKEN2 }} ${{ steps.nope.outputs.x }}
              - run: { shell: /bin/bash }
            """])
        let found = await fixture.problems("release")
        #expect(found == [
            "lanes/release.yml:5:5: error: unknown step 'swift.tset'. Did you mean 'swift.test'? Run 'slipway steps' for the built-in steps; a plugin would be an executable 'slipway-step-swift.tset' on PATH.",
            "lanes/release.yml:6:49: error: step 'run' has no option 'colour'. (its options are command, shell)",
            "lanes/release.yml:6:27: error: 'inputs.bumpp' refers to an undeclared input. Did you mean 'bump'? Declare it under 'inputs:'.",
            "lanes/release.yml:7:35: error: option 'configuration' must be one of debug, release, but it is 'fast'.",
            "lanes/release.yml:8:29: error: option 'parallel' expects true or false, but this is a string 'yes'",
            "lanes/release.yml:9:15: error: 'secrets.TOKEN2' refers to an undeclared secret. Did you mean 'TOKEN'? Declare it under 'secrets:' (its value comes from the environment variable TOKEN2).",
            "lanes/release.yml:9:37: error: 'steps.nope.outputs.x' refers to an unknown step 'nope'. Give the step 'id: nope'.",
            "lanes/release.yml:10:5: error: step 'run' needs option 'command' (string): The command line, run by the shell (may span lines).",
        ])
    }

    @Test func stepReferencesMustPointBackwards() async throws {
        let fixture = try LaneFixture(["l": """
            steps:
              - run: echo ${{ steps.later.outputs.x }}
              - run: echo ${{ steps.me.outputs.x }}
                id: me
              - run: echo hi
                id: later
              - swift.build: {}
                id: build
              - run: echo ${{ steps.build.outputs.binpath }}
            """])
        let found = await fixture.problems("l")
        #expect(found == [
            "lanes/l.yml:2:15: error: 'steps.later.outputs.x' refers to step 'later', which runs after this one (or beside it in a parallel group); move it earlier",
            "lanes/l.yml:3:15: error: step 'me' refers to its own output 'x'; a step can only use outputs of steps that ran before it",
            "lanes/l.yml:9:15: error: step 'build' (swift.build) has no output 'binpath'. Did you mean 'bin-path'? (its outputs are bin-path)",
        ])
    }

    @Test func environmentCyclesAndSelfReferences() async throws {
        let fixture = try LaneFixture(["l": """
            env:
              A: "${{ env.B }}/a"
              B: "${{ env.A }}/b"
              C: "${{ env.C }}:more"
              D: "${{ env.HOME }}"
            steps:
              - run: echo $A
            """])
        let found = await fixture.problems("l")
        #expect(found == [
            "lanes/l.yml:2:7: error: env variables refer to each other in a cycle: env.A → env.B → env.A; break the cycle",
            "lanes/l.yml:4:7: error: env 'C' refers to itself; a lane variable cannot use its own value (set it in a step's env to extend an inherited variable)",
        ])
    }

    @Test func badExpressionSyntax() async throws {
        let fixture = try LaneFixture(["l": "steps:\n  - run: echo ${{ inputs.x ==  }}\n  - run: echo ${{ inputs.x\n  - run: echo ${{ nope.x }}\n"])
        #expect(await fixture.problems("l") == [
            "lanes/l.yml:2:32: error: expected a value but found the end of the expression in '${{ inputs.x ==  }}'",
            "lanes/l.yml:3:15: error: '${{' is not closed; end the expression with '}}'",
            "lanes/l.yml:4:19: error: unknown context 'nope'; use inputs, secrets, env, steps or lane in '${{ nope.x }}'",
        ])
    }

    @Test func parallelSiblingsCannotUseEachOthersOutputs() async throws {
        let fixture = try LaneFixture(["l": """
            steps:
              - parallel:
                  - run: echo a
                    id: a
                  - run: echo ${{ steps.a.outputs.x }}
            """])
        let found = await fixture.problems("l")
        #expect(found.count == 1)
        #expect((found.first ?? "").contains("which runs after this one (or beside it in a parallel group)"))
    }

    @Test func stepsUnsupportedOnThisPlatformAreRefused() async throws {
        let description = StepDescription(id: "mac.only", summary: "x", platforms: [Platform.current == .linux ? .macOS : .linux])
        let kind = StepKind(description: description, origin: .builtIn) { _ in NoopAction() }
        let lane = try LaneFileParser.parse("steps:\n  - mac.only\n", name: "l", file: "lanes/l.yml")
        await #expect(throws: DiagnosticsError.self) {
            try await LaneValidator(registry: StepRegistry(extra: [kind])).validate(lane)
        }
        do {
            _ = try await LaneValidator(registry: StepRegistry(extra: [kind])).validate(lane)
        } catch let error as DiagnosticsError {
            let other = Platform.current == .linux ? "macos" : "linux"
            #expect(error.diagnostics.map(\.description) == ["lanes/l.yml:2:5: error: step 'mac.only' runs only on \(other), not on \(Platform.current.rawValue); run this lane on \(other) or remove the step; to check this lane from \(Platform.current.rawValue), run 'slipway validate l --platform \(other)' or 'slipway run l --dry-run --platform \(other)'"])
        }
    }

    @Test func literalOptionsAreCheckedByTheStepItself() async throws {
        let fixture = try LaneFixture(["l": "steps:\n  - run: '   '\n"])
        #expect(await fixture.problems("l") == ["lanes/l.yml:2:5: error: step 'run' (run): option 'command' is empty. Give the command to run."])
    }

    @Test func unknownLaneSuggestsTheNearest() async throws {
        let fixture = try LaneFixture(["release": "steps:\n  - run: a\n", "ci": "steps:\n  - run: a\n"])
        #expect(throws: LaneStoreError.self) { try fixture.workspace.store.load("relase") }
        do {
            _ = try fixture.workspace.store.load("relase")
        } catch {
            #expect(errorText(error) == "there is no lane 'relase' in 'lanes'. Did you mean 'release'? (available: ci, release)")
        }
    }

    @Test func missingLaneDirectory() throws {
        let fixture = try LaneFixture()
        do {
            _ = try fixture.workspace.store.names()
            Issue.record("expected an error")
        } catch {
            #expect(errorText(error) == "the lane directory 'lanes' does not exist. Run 'slipway init' to create starter lanes, or pass --lanes DIR.")
        }
    }

    @Test func nonUTF8LaneFile() async throws {
        let fixture = try LaneFixture()
        try FileManager.default.createDirectory(atPath: fixture.path + "/lanes", withIntermediateDirectories: true)
        try Data([0x73, 0x74, 0x65, 0x70, 0x73, 0x3A, 0x0A, 0x20, 0x20, 0x2D, 0x20, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: fixture.path + "/lanes/bad.yml"))
        #expect(await fixture.problems("bad") == ["lanes/bad.yml:2:5: error: the lane file is not valid UTF-8 (byte at this position). Save it as UTF-8."])
    }

    @Test func everyBuiltInStepExampleValidates() async throws {
        for kind in StepRegistry().builtInKinds {
            let description = kind.description
            #expect(!description.summary.isEmpty, "\(description.id) has no summary")
            #expect(!description.examples.isEmpty, "\(description.id) has no examples")
            for option in description.options { #expect(!option.summary.isEmpty, "\(description.id).\(option.name) is undocumented") }
            for example in description.examples {
                let indented = example.yaml.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }.joined(separator: "\n")
                let secrets = Set(example.yaml.matches(of: /secrets\.([A-Za-z0-9_]+)/).map { String($0.1) }).sorted()
                let declared = secrets.isEmpty ? "" : "secrets: [\(secrets.joined(separator: ", "))]\n"
                let text = declared + "steps:\n  - run: 'true'\n    id: earlier\n\(indented)\n"
                let lane = try LaneFileParser.parse(text, name: "example", file: "\(description.id) example '\(example.title)'")
                // macOS-only steps (xcode.*) validate as on a Mac.
                let platform: Platform = description.platforms.contains(.current) ? .current : .macOS
                _ = try await LaneValidator(registry: StepRegistry(), platform: platform).validate(lane)
                #expect(lane.allInvocations.contains { $0.kind == description.id }, "example '\(example.title)' does not use \(description.id)")
                let page = StepDocumentation.page(kind)
                #expect(page.contains(example.title))
            }
        }
    }
}

struct NoopAction: StepAction {
    func plan(in context: StepContext) async throws -> [Effect] { [] }
    func run(in context: StepContext) async throws -> StepOutputs { [:] }
}
