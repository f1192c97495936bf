import Basics
import Foundation
import Lanes
import Steps
import Testing
import TestThreads

/// Drives external plugins written in Python through the real protocol.
@Suite(.dedicatedThreads) struct PluginTests {
    static let plugin = #"""
        #!/usr/bin/env python3
        import json, os, sys
        request = json.loads(sys.stdin.read())
        def emit(**event):
            print(json.dumps(event), flush=True)
        mode = os.path.basename(sys.argv[0]).split("slipway-step-")[1]
        if request["action"] == "describe":
            emit(event="description", protocol=1, summary="Greets someone (test plugin)",
                 options=[{"name": "who", "type": "string", "required": True, "summary": "Whom to greet"},
                          {"name": "times", "type": "int", "default": 1, "summary": "How often"}],
                 outputs=[{"name": "greeting", "summary": "The greeting"}])
            sys.exit(0)
        if request["action"] == "plan":
            emit(event="effect", kind="other", summary="greet " + request["options"]["who"])
            sys.exit(0)
        if mode == "crash":
            os.kill(os.getpid(), 11)
        if mode == "garbage":
            print("this is not json", flush=True)
            emit(event="result", status="success")
            sys.exit(0)
        if mode == "exits":
            print("going down", file=sys.stderr)
            emit(event="result", status="failure", message="the server said no")
            sys.exit(3)
        if mode == "silent":
            sys.exit(0)
        emit(event="log", level="info", message="lane " + request["lane"] + ", input " + request["inputs"].get("who", "?"))
        emit(event="progress", fraction=0.5, message="half way")
        greeting = " ".join(["hello " + request["options"]["who"]] * request["options"]["times"])
        emit(event="output", name="greeting", value=greeting)
        emit(event="result", status="success")
        """#

    func fixture(_ steps: String, plugins: [String] = ["greet"]) throws -> LaneFixture {
        let fixture = try LaneFixture(["l": """
            inputs:
              who: { default: Ada }
            steps:
            \(steps)
            finally:
              - run: echo finally ran
                id: fin
            """])
        for name in plugins {
            let path = try fixture.directory.write(".slipway/bin/slipway-step-\(name)", Self.plugin)
            chmod(path, 0o755)
        }
        return fixture
    }

    @Test func aPythonPluginRunsThroughTheProtocol() async throws {
        let fixture = try fixture("""
              - greet: { who: "${{ inputs.who }}", times: 2 }
                id: hi
              - run: echo "${{ steps.hi.outputs.greeting }}"
            """)
        let outcome = try await fixture.run("l")
        #expect(outcome.summary.status == .succeeded)
        #expect(outcome.outputs("hi")["greeting"] == "hello Ada hello Ada")
        #expect(outcome.console.contains("info: lane l, input Ada"))
        #expect(outcome.console.contains("… half way 50%"))
        #expect(outcome.console.contains("    hello Ada hello Ada"))
        let dry = try await fixture.run("l") { $0.isDryRun = true }
        #expect(dry.console.contains("would other: greet Ada"))
    }

    @Test func pluginOptionsAreValidatedFromItsDescription() async throws {
        let fixture = try fixture("  - greet: { times: many, whom: x }")
        let problems = await fixture.problems("l")
        #expect(problems == [
            "lanes/l.yml:4:21: error: option 'times' expects an integer, but this is a string 'many'",
            "lanes/l.yml:4:27: error: step 'greet' has no option 'whom'. Did you mean 'who'? (its options are who, times)",
            "lanes/l.yml:4:5: error: step 'greet' needs option 'who' (string): Whom to greet",
        ])
    }

    @Test func crashingPluginFailsTheStepAndFinallyRuns() async throws {
        let outcome = try await fixture("  - crash: { who: x }\n    id: c", plugins: ["crash"]).run("l")
        #expect(outcome.status("c") == .failed)
        #expect(outcome.summary.steps[0].error == "plugin 'slipway-step-crash' crashed (signal 11)")
        #expect(outcome.status("fin") == .succeeded)
    }

    @Test func pluginPrintingGarbageIsAProtocolError() async throws {
        let outcome = try await fixture("  - garbage: { who: x }\n    id: g", plugins: ["garbage"]).run("l")
        #expect(outcome.status("g") == .failed)
        #expect(outcome.summary.steps[0].error == "plugin 'slipway-step-garbage' printed invalid JSON on stdout line 1: 'this is not json'. Plugins print one JSON event per line on stdout (logs go to stderr); see docs/plugins.md.")
        #expect(outcome.status("fin") == .succeeded)
    }

    @Test func pluginExitingNonZero() async throws {
        let outcome = try await fixture("  - exits: { who: x }\n    id: e", plugins: ["exits"]).run("l")
        #expect(outcome.summary.steps[0].error == "plugin 'slipway-step-exits' exited with code 3: the server said no")
        #expect(outcome.console.contains("    going down"))
        #expect(outcome.status("fin") == .succeeded)
    }

    @Test func pluginWithoutResult() async throws {
        let outcome = try await fixture("  - silent: { who: x }\n    id: s", plugins: ["silent"]).run("l")
        #expect(outcome.summary.steps[0].error == "plugin 'slipway-step-silent' exited without a 'result' event. A plugin must end with {\"event\":\"result\",\"status\":\"success\"}.")
    }

    @Test func missingPluginIsAnUnknownStep() async throws {
        let fixture = try fixture("  - deploy-to-mars: { who: x }", plugins: [])
        #expect(await fixture.problems("l") == ["lanes/l.yml:4:5: error: unknown step 'deploy-to-mars'. Run 'slipway steps' for the built-in steps; a plugin would be an executable 'slipway-step-deploy-to-mars' on PATH."])
    }

    @Test func nonExecutablePlugin() async throws {
        let fixture = try fixture("  - greet: { who: x }")
        chmod(fixture.path + "/.slipway/bin/slipway-step-greet", 0o644)
        let path = fixture.path + "/.slipway/bin/slipway-step-greet"
        #expect(await fixture.problems("l") == ["lanes/l.yml:4:5: error: step 'greet': plugin '\(path)' is not executable. Run 'chmod +x \(path)'."])
    }

    @Test func pluginThatCannotDescribeItself() async throws {
        let fixture = try fixture("  - broken: { who: x }", plugins: [])
        let path = try fixture.directory.write(".slipway/bin/slipway-step-broken", "#!/bin/sh\necho '{not json'\n")
        chmod(path, 0o755)
        #expect(await fixture.problems("l") == ["lanes/l.yml:4:5: error: step 'broken': plugin 'slipway-step-broken' printed invalid JSON on stdout line 1: '{not json'"])
    }
}
