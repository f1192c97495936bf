@testable import CIExport
import Basics
import Foundation
import Lanes
import Testing
import TestSupport
import TestThreads

/// Issue 23 item 4: a lane from an untrusted branch cannot inject into an exported pipeline.
/// A lane of hostile strings that validation must accept (quotes, `$`, backticks, `${{`, YAML
/// indicators) is exported to each engine, read back with Yams and compared key by key with
/// what the renderer meant; every generated shell command parses (`bash -n`) and runs in a
/// sandbox where stand-ins record what `slipway` and `buildkite-agent` were given and no
/// marker file appears.
@Suite("CI export: hostile lanes", .dedicatedThreads) struct CIHostileLaneTests {
    /// One line of everything a shell, YAML or an engine might read as syntax.
    static let nasty = #"$(touch pwned) `touch pwned` ${HOME} $HOME ${{ github.event.issue.title }} 'q' "dq" \ # : - ? * & ! % @ | > [x] {y} ;touch pwned;"#
    static let description = "yes"
    static let choices = ["'; touch pwned; '", "on", "$HOME", "- x", "#y", "${{ secrets.TOKEN_1 }}"]
    static let artifacts = ["dist/$HOME/*", "dist/a'b", "dist/$(touch pwned)", "dist/`touch pwned`", "dist/a b", "dist/#x",
                            "dist/: x", #"dist/"q"\"#, "dist/{{x}}"]

    static var lane: String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return """
            inputs:
              a-b:
                description: \(quoted(nasty))
                default: "$(touch pwned)"
              _c:
                description: \(quoted(description))
                default: \(quoted(choices[0]))
                choices: [\(choices.map(quoted).joined(separator: ", "))]
              n1:
                type: int
                default: 3
              flag:
                type: bool
                default: false
            secrets: [TOKEN_1, _lower]
            ci-jobs: per-step
            steps:
              - run: { command: "echo ${{ secrets.TOKEN_1 }}" }
                id: build.a-1
                name: \(quoted(nasty))
                runs-on: "q$HOME'x"
                artifacts: [\(artifacts.map(quoted).joined(separator: ", "))]
              - run: "echo ok"
                id: 2x
                name: "yes"
            finally:
              - run: "echo ${{ secrets._lower }}"
                id: last

            """
    }

    /// Every way the issue's samples reach a pipeline, in one lane: each is refused at
    /// validation with its place in the file, the control characters not repeated in the
    /// messages, and nothing is written.
    static let refusedLane = #"""
        inputs:
          "`touch pwned`": x
          "a${{ github.event.inputs.b }}": y
          described:
            description: "one\rpermissions: write-all"
            default: z
          chosen:
            default: ok
            choices: [ok, "two\nlines"]
          a-b: "1\nx"
          a_b: q
        secrets: ["X;touch /tmp/p", GOOD]
        steps:
          - run: { command: "echo hi" }
            id: "a$HOME"
            name: "build\npermissions: write-all"
            artifacts: ["dist/b\n/home/runner/.ssh/*", "-rf"]
          - "../../tmp/evil"

        """#

    static let refusedMessages = """
        lanes/hostile.yml:2:3: error: input name '`touch pwned`' may only use ASCII letters, digits, '_' and '-', starting with a letter or '_' (it becomes a CI input and the variable SLIPWAY_INPUT_<NAME>)
        lanes/hostile.yml:3:3: error: input name 'a${{ github.event.inputs.b }}' may only use ASCII letters, digits, '_' and '-', starting with a letter or '_' (it becomes a CI input and the variable SLIPWAY_INPUT_<NAME>)
        lanes/hostile.yml:5:18: error: input 'described' description contains the control character U+000D; write it on one line, without tabs or other control characters (it is copied into CI pipelines)
        lanes/hostile.yml:9:19: error: input 'chosen' choice contains the control character U+000A; write it on one line, without tabs or other control characters (it is copied into CI pipelines)
        lanes/hostile.yml:10:8: error: input 'a-b' default contains the control character U+000A; write it on one line, without tabs or other control characters (it is copied into CI pipelines)
        lanes/hostile.yml:11:3: error: inputs 'a-b' and 'a_b' would both be passed to CI jobs as SLIPWAY_INPUT_A_B; rename one
        lanes/hostile.yml:12:11: error: secret name 'X;touch /tmp/p' must be an environment variable name: ASCII letters, digits and '_', not starting with a digit (its value is read from the variable of that name)
        lanes/hostile.yml:15:9: error: step id 'a$HOME' may only use ASCII letters, digits, '_', '-' and '.', starting with a letter, a digit or '_'
        lanes/hostile.yml:16:11: error: step name contains the control character U+000A; write it on one line, without tabs or other control characters (it is copied into CI pipelines)
        lanes/hostile.yml:17:17: error: an 'artifacts' entry contains the control character U+000A; write it on one line, without tabs or other control characters (it is copied into CI pipelines)
        lanes/hostile.yml:17:48: error: artifact pattern '-rf' must be a path or glob inside the project (no leading '/' or '-', no '..', no expressions), e.g. build/*.ipa
        lanes/hostile.yml:18:5: error: step kind '../../tmp/evil' may only use ASCII letters, digits, '_', '-' and '.', starting with a letter, a digit or '_' (run 'slipway steps' for the list)
        12 problems found; nothing was run.

        """

    @Test(arguments: CIEngine.allCases)
    func aHostileLaneIsRefusedAtValidation(engine: CIEngine) throws {
        let folder = try TemporaryDirectory(prefix: "slipway-ci-refused")
        try folder.write("lanes/hostile.yml", Self.refusedLane)
        let before = try Snapshot.of(folder.path)
        let output = CIExportSupport.outputPath("hostile", engine)
        for arguments in [["ci", "export", "hostile", "--to", engine.rawValue, "--output", output],
                          ["ci", "check", "hostile", "--to", engine.rawValue, "--file", output]] {
            let result = try CommandResult.run(Binaries.slipway, arguments, in: folder.path, environment: ["NO_COLOR": "1"])
            #expect(result.status == 2, "\(result.standardError)")
            #expect(result.standardOutput == "")
            #expect(result.standardError == Self.refusedMessages)
        }
        #expect(try Snapshot.of(folder.path) == before)
    }

    /// The values the jobs are given for the inputs (as the engine's form would pass them).
    static let inputValues = ["SLIPWAY_INPUT_A_B": "$(touch pwned)", "SLIPWAY_INPUT__C": "'; touch pwned; '",
                              "SLIPWAY_INPUT_N1": "3", "SLIPWAY_INPUT_FLAG": "`touch pwned`"]

    private func plan() async throws -> (CIPlan, TemporaryDirectory) {
        let folder = try TemporaryDirectory(prefix: "slipway-ci-hostile")
        try folder.write("lanes/hostile.yml", Self.lane)
        let validated = try await CIExportSupport.exporter(projectDirectory: folder.path).validate("hostile")
        return (try CIPlanner.plan(validated), folder)
    }

    private static func document(_ plan: CIPlan, _ engine: CIEngine) -> PipelineNode {
        let options = CIExportOptions(outputPath: CIExportSupport.outputPath("hostile", engine))
        switch engine {
        case .githubActions: return GitHubActionsRenderer.document(plan, options: options)
        case .gitlab: return GitLabRenderer.document(plan, options: options)
        case .buildkite: return BuildkiteRenderer.document(plan, options: options)
        }
    }

    @Test(arguments: CIEngine.allCases)
    func theFileReadsBackAsExactlyWhatWasMeant(engine: CIEngine) async throws {
        let (plan, _) = try await plan()
        let options = CIExportOptions(outputPath: CIExportSupport.outputPath("hostile", engine))
        let text = try CIExporter.render(plan, engine: engine, options: options)
        let parsed = try #require(try PipelineTree.parse(text))
        #expect(parsed == PipelineTree(Self.document(plan, engine)))
        // The header is comment lines only: nothing before the document's first key.
        #expect(text.split(separator: "\n").prefix(5).allSatisfy { $0.hasPrefix("#") })
        let dollar: (String) -> String = engine == .buildkite ? { $0.replacingOccurrences(of: "$", with: "$$") } : { $0 }
        switch engine {
        case .githubActions:
            #expect(parsed.keys == ["name", "on", "permissions", "jobs"])
            #expect(parsed["permissions"] == .map([.init(key: "contents", value: .string("read"))]))
            let inputs = try #require(parsed["on"]?["workflow_dispatch"]?["inputs"])
            #expect(inputs.keys == ["a-b", "_c", "n1", "flag"])
            #expect(inputs["a-b"]?["description"] == .string(Self.nasty))
            #expect(inputs["a-b"]?["default"] == .string("$(touch pwned)"))
            #expect(inputs["_c"]?["description"] == .string("yes"))
            #expect(inputs["_c"]?["options"] == .list(Self.choices.map(PipelineTree.string)))
            let jobs = try #require(parsed["jobs"])
            #expect(jobs.keys == ["build-a-1", "s-2x", "finally"])
            let build = try #require(jobs["build-a-1"])
            #expect(build.keys == ["name", "runs-on", "env", "steps"])
            #expect(build["name"]?.text == GitHubActionsRenderer.literal(Self.nasty))
            #expect(build["name"]?.text?.contains("${{ github.event") == false)
            #expect(build["runs-on"] == .string("q$HOME'x"))
            #expect(build["env"]?.keys == ["SLIPWAY_INPUT_A_B", "SLIPWAY_INPUT__C", "SLIPWAY_INPUT_N1", "SLIPWAY_INPUT_FLAG", "TOKEN_1"])
            #expect(build["steps"]?.items.last?["with"]?["path"] == .string(([".slipway/ci/"] + Self.artifacts).joined(separator: "\n") + "\n"))
            #expect(jobs["s-2x"]?["name"] == .string("yes"))
        case .gitlab:
            #expect(parsed.keys == ["variables", "stages", "build-a-1", "s-2x", "finally"])
            let variable = try #require(parsed["variables"]?["SLIPWAY_INPUT_A_B"])
            #expect(variable.keys == ["value", "description", "expand"])
            #expect(variable["description"] == .string(Self.nasty))
            #expect(variable["value"] == .string("$(touch pwned)"))
            #expect(parsed["variables"]?["SLIPWAY_INPUT__C"]?["options"] == .list(Self.choices.map(PipelineTree.string)))
            let build = try #require(parsed["build-a-1"])
            #expect(build.keys == ["stage", "tags", "needs", "script", "artifacts"])
            #expect(build["tags"] == .list([.string("q$HOME'x")]))
            #expect(build["artifacts"]?["paths"] == .list(([".slipway/ci/"] + Self.artifacts).map(PipelineTree.string)))
        case .buildkite:
            let steps = try #require(parsed["steps"]).items
            #expect(parsed.keys == ["steps"])
            #expect(steps.map(\.keys) == [["input", "key", "fields"],
                                          ["label", "key", "depends_on", "agents", "secrets", "command", "artifact_paths"],
                                          ["label", "key", "depends_on", "agents", "command", "artifact_paths"],
                                          ["label", "key", "depends_on", "allow_dependency_failure", "agents", "secrets", "command",
                                           "artifact_paths"]])
            let fields = steps[0]["fields"]?.items ?? []
            #expect(fields.first?["hint"] == .string(dollar(Self.nasty)))
            #expect(fields.first?["default"] == .string(dollar("$(touch pwned)")))
            #expect(steps[1]["label"] == .string(dollar(Self.nasty)))
            #expect(steps[1]["agents"] == .map([.init(key: "queue", value: .string(dollar("q$HOME'x")))]))
            #expect(steps[1]["artifact_paths"] == .list(([".slipway/ci/**/*"] + Self.artifacts).map { .string(dollar($0)) }))
            // No `$` is left for Buildkite to interpolate: every one is doubled.
            #expect(!text.replacingOccurrences(of: "$$", with: "").contains("$"))
        }
    }

    /// The shell commands of each job, in order, as the engine hands them to the shell.
    private static func scripts(_ parsed: PipelineTree, _ engine: CIEngine) -> [(job: String, script: String)] {
        guard case .map(let pairs) = engine == .githubActions ? (parsed["jobs"] ?? .null) : parsed else { return [] }
        switch engine {
        case .githubActions:
            return pairs.flatMap { pair in pair.value["steps"]?.items.compactMap { $0["run"]?.text }.map { (pair.key, $0) } ?? [] }
        case .gitlab:
            // One shell runs a job's script lines in turn (an `unset` holds for the lines after it).
            return pairs.filter { !["variables", "stages"].contains($0.key) }.map { pair in
                (pair.key, (pair.value["script"]?.items.compactMap(\.text) ?? []).joined(separator: "\n"))
            }
        case .buildkite:
            // Buildkite's upload turns `$$` back into `$` before the agent runs the command.
            return (parsed["steps"]?.items ?? []).compactMap { step in
                guard let key = step["key"]?.text, let command = step["command"]?.text else { return nil }
                return (key, command.replacingOccurrences(of: "$$", with: "$"))
            }
        }
    }

    @Test(arguments: CIEngine.allCases)
    func everyCommandParsesAndRunsWithTheValuesAsGiven(engine: CIEngine) async throws {
        let (plan, _) = try await plan()
        let text = try CIExporter.render(plan, engine: engine, options: CIExportOptions())
        let parsed = try #require(try PipelineTree.parse(text))
        let sandbox = try ShellSandbox(watching: ["TOKEN_1", "_lower"])
        let secrets = ["TOKEN_1": "t0k'en $(touch pwned)", "_lower": "low`touch pwned`"]
        let scripts = Self.scripts(parsed, engine)
        #expect(!scripts.isEmpty)
        var slipwayCalls: [String: [ShellSandbox.Call]] = [:]
        var agentCalls: [String: [[String]]] = [:]
        for (job, script) in scripts {
            let syntax = try sandbox.syntaxCheck(script)
            #expect(syntax.status == 0, "bash -n \(job): \(syntax.standardError)\n\(script)")
            // GitHub and Buildkite pass only the job's secrets; GitLab passes all and the job unsets the others.
            var environment = engine == .buildkite ? [:] : Self.inputValues
            let used = plan.jobs.first { $0.id == job }?.secrets ?? []
            for (name, value) in secrets where engine == .gitlab || used.contains(name) { environment[name] = value }
            let result = try sandbox.run(script, environment: environment)
            #expect(result.status == 0, "\(job): \(result.standardError)\n\(script)")
            for call in try sandbox.takeCalls() {
                if call.argv.first == "slipway" { slipwayCalls[job, default: []].append(call) } else { agentCalls[job, default: []].append(call.argv) }
            }
        }
        #expect(try sandbox.markers() == [], "a generated command ran an injected one")
        let values: [String: String]
        if engine == .buildkite {
            // The stand-in answers `meta-data get` with the lane's defaults.
            values = ["a-b": "$(touch pwned)", "_c": Self.choices[0], "n1": "3", "flag": "false"]
        } else {
            values = ["a-b": Self.inputValues["SLIPWAY_INPUT_A_B"] ?? "", "_c": Self.inputValues["SLIPWAY_INPUT__C"] ?? "",
                      "n1": "3", "flag": Self.inputValues["SLIPWAY_INPUT_FLAG"] ?? ""]
        }
        let inputs = ["a-b", "_c", "n1", "flag"].flatMap { ["--input", "\($0)=\(values[$0] ?? "")"] }
        let expected: [String: (only: [String], secrets: [String])] = [
            "build-a-1": (["build.a-1"], ["TOKEN_1=\(secrets["TOKEN_1"] ?? "")", "_lower unset"]),
            "s-2x": (["2x"], ["TOKEN_1 unset", "_lower unset"]),
            "finally": (["last"], ["TOKEN_1 unset", "_lower=\(secrets["_lower"] ?? "")"]),
        ]
        #expect(Set(slipwayCalls.keys) == Set(expected.keys))
        for (job, want) in expected {
            let argv = ["slipway", "run", "hostile"] + want.only.flatMap { ["--only", $0] } + inputs
            #expect(slipwayCalls[job] == [ShellSandbox.Call(argv: argv, environment: want.secrets)], "\(job)")
        }
        if engine == .buildkite {
            let downloads = ([".slipway/ci/**/*"] + Self.artifacts).map { ["buildkite-agent", "artifact", "download", $0, ".", "--step", "build-a-1"] }
            #expect(agentCalls["s-2x"]?.filter { $0.dropFirst().first == "artifact" } == downloads)
            let gets = agentCalls["s-2x"]?.filter { $0.dropFirst().first == "meta-data" }.map { Array($0.prefix(4)) }
            #expect(gets == ["a-b", "_c", "n1", "flag"].map { ["buildkite-agent", "meta-data", "get", "slipway-input-\($0)"] })
        }
    }
}
