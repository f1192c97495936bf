import Basics
import Foundation
import Lanes
import Steps
import Testing
import TestSupport
import TestThreads

@Suite(.dedicatedThreads) struct LaneRunnerTests {
    @Test func outputsFlowToLaterStepsAndFinallyRunsAfterFailure() async throws {
        let fixture = try LaneFixture(["l": """
            inputs:
              who: { default: world }
            env:
              GREETING: "hello ${{ inputs.who }}"
            steps:
              - run: echo "msg=$GREETING" >> "$SLIPWAY_OUTPUT"
                id: first
              - run: test "${{ steps.first.outputs.msg }}" = "hello there" && exit 3
                id: fails
              - run: echo never
                id: skipped
            finally:
              - run: echo "cleanup after ${{ steps.first.outputs.msg }}"
                id: cleanup
            """])
        let outcome = try await fixture.run("l") { $0.inputs = ["who": "there"] }
        #expect(outcome.summary.status == .failed)
        #expect(outcome.outputs("first")["msg"] == "hello there")
        #expect(outcome.status("fails") == .failed)
        #expect(outcome.summary.steps.first { $0.id == "fails" }?.error == "the command exited with code 3")
        #expect(outcome.status("skipped") == .skipped)
        #expect(outcome.status("cleanup") == .succeeded)
        #expect(outcome.console.contains("    cleanup after hello there"))
        #expect(outcome.console.contains("| 3  | skipped | run  | skipped   | -"))
        #expect(outcome.console.contains("| f1 | cleanup | run  | succeeded |"))
        #expect(outcome.console.contains("✗ lane 'l' failed after"))
    }

    @Test func conditionsAndContinueOnError() async throws {
        let fixture = try LaneFixture(["l": """
            inputs:
              deploy: { type: bool, default: false }
            steps:
              - run: exit 1
                id: flaky
                continue-on-error: true
              - run: echo deploying
                id: deploy
                if: ${{ inputs.deploy }}
              - run: echo still running
                id: after
              - run: echo only on failure
                id: onfail
                if: failure()
            """])
        let outcome = try await fixture.run("l")
        #expect(outcome.summary.status == .succeeded)
        #expect(outcome.status("flaky") == .failed)
        #expect(outcome.summary.steps[0].continuedOnError)
        #expect(outcome.status("deploy") == .skipped)
        #expect(outcome.status("after") == .succeeded)
        #expect(outcome.status("onfail") == .skipped)
        let deployed = try await fixture.run("l") { $0.inputs = ["deploy": "true"] }
        #expect(deployed.status("deploy") == .succeeded)
    }

    @Test func aTrueConditionAfterAFailureIsSkippedBecauseOfTheFailure() async throws {
        let fixture = try LaneFixture(["l": """
            inputs:
              deploy: { type: bool, default: true }
            steps:
              - run: exit 1
              - run: echo deploying
                id: deploy
                if: ${{ inputs.deploy }}
            """])
        let outcome = try await fixture.run("l")
        #expect(outcome.status("deploy") == .skipped)
        #expect(outcome.console.contains("deploy skipped: an earlier step failed"), "\(outcome.console)")
        #expect(!outcome.console.contains("is false"))
    }

    /// A lane whose step `flaky` fails twice, then succeeds, retried after `delay` (doubling).
    func flakyLane(delay: String) throws -> LaneFixture {
        try LaneFixture(["l": """
            steps:
              - run: |
                  n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count
                  test $n -ge 3
                id: flaky
                retry: { attempts: 3, delay: \(delay), backoff: 2 }
            """])
    }

    @Test func retriesWithBackoffUntilSuccess() async throws {
        let fixture = try flakyLane(delay: "50ms")
        let outcome = try await fixture.run("l")
        #expect(outcome.status("flaky") == .succeeded)
        #expect(outcome.summary.steps[0].attempts == 3)
        #expect(outcome.console.contains("attempt 1 of 3 failed: the command exited with code 1; retrying in 0.05s"))
        #expect(outcome.console.contains("attempt 2 of 3 failed: the command exited with code 1; retrying in 0.10s"))
    }

    /// `retry:` waits through the run's injected clock (StepServices.sleep), as HTTP retries
    /// do: the waits are handed to it (which here returns at once), none is waited for real.
    /// Before, Task.sleep waited and the injected clock saw nothing. (A short delay, so that a
    /// regression fails on the waits seen rather than hanging for the delay.)
    @Test func retryBackoffWaitsThroughTheInjectedSleep() async throws {
        let fixture = try flakyLane(delay: "20ms")
        let waits = Locked<[Duration]>([])
        fixture.sleep = { duration in waits.withLock { $0.append(duration) } }
        let outcome = try await fixture.run("l")
        #expect(outcome.status("flaky") == .succeeded)
        #expect(outcome.summary.steps[0].attempts == 3)
        #expect(waits.withLock { $0 } == [.milliseconds(20), .milliseconds(40)])
        #expect(outcome.console.contains("attempt 2 of 3 failed: the command exited with code 1; retrying in 0.04s"), "\(outcome.console)")
    }

    @Test func timeoutStopsTheWholeProcessGroup() async throws {
        let fixture = try LaneFixture(["l": """
            steps:
              - run: |
                  sleep 30 &
                  echo $! > grandchild.pid
                  sleep 30
                id: hang
                timeout: 1s
            finally:
              - run: echo finally ran
                id: fin
            """])
        let outcome = try await fixture.run("l")
        #expect(outcome.status("hang") == .timedOut)
        #expect(outcome.summary.steps[0].error == "timed out after 1.00s; its processes were stopped")
        #expect(outcome.status("fin") == .succeeded)
        let pid = try #require(Int32(String(contentsOfFile: fixture.path + "/grandchild.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(await ProcessState.hasExited(pid), "the background grandchild \(pid) still runs")
    }

    @Test func interruptionStopsTheStepAndStillRunsFinally() async throws {
        let fixture = try LaneFixture(["l": """
            steps:
              - run: echo started > started; sleep 30
                id: long
              - run: echo never
                id: next
            finally:
              - run: echo cleaned > cleaned
                id: fin
            """])
        var options = LaneRunner.Options()
        let interruption = options.interruption
        let path = fixture.path
        FileWatcher.whenExists(path + "/started") { _ in interruption.trigger() }
        options.interruption = interruption
        let copy = options
        let outcome = try await fixture.run("l") { $0 = copy }
        #expect(outcome.summary.status == .cancelled)
        #expect(outcome.status("long") == .cancelled)
        #expect(outcome.status("next") == .cancelled)
        #expect(outcome.status("fin") == .succeeded)
        #expect(FileManager.default.fileExists(atPath: fixture.path + "/cleaned"))
    }

    @Test func parallelStepsOverlap() async throws {
        let fixture = try LaneFixture(["l": """
            steps:
              - parallel:
                  - run: touch a.started; for i in $(seq 1200); do test -e b.started && exit 0; sleep 0.05; done; exit 1
                    id: a
                  - run: touch b.started; for i in $(seq 1200); do test -e a.started && exit 0; sleep 0.05; done; exit 1
                    id: b
              - run: echo after
                id: after
            """])
        let outcome = try await fixture.run("l")
        #expect(outcome.status("a") == .succeeded, "each step waits until the other has started: only concurrency passes")
        #expect(outcome.status("b") == .succeeded)
        #expect(outcome.status("after") == .succeeded)
    }

    @Test func resumeContinuesAtTheFailedStepWithEarlierOutputs() async throws {
        let fixture = try LaneFixture(["l": """
            steps:
              - run: echo "v=1.2.3" >> "$SLIPWAY_OUTPUT"; echo one >> log
                id: one
              - run: echo two >> log
                id: two
              - run: test -e fixed && echo "three ${{ steps.one.outputs.v }}" >> log
                id: three
              - run: echo four >> log
                id: four
            """])
        let first = try await fixture.run("l")
        #expect(first.summary.status == .failed)
        #expect(first.status("three") == .failed)
        try fixture.write("fixed", "")
        let resumed = try await fixture.run("l") { $0.resume = true }
        #expect(resumed.summary.status == .succeeded)
        #expect(resumed.summary.steps.map(\.status) == [.reused, .reused, .succeeded, .succeeded])
        let log = try String(contentsOfFile: fixture.path + "/log", encoding: .utf8)
        #expect(log == "one\ntwo\nthree 1.2.3\nfour\n")
        let journal = try #require(try RunJournalStore(fileSystem: LocalFileSystem(), projectDirectory: fixture.path, environment: fixture.environment).latest(lane: "l"))
        #expect(journal.status == "succeeded")
        #expect(journal.steps.first { $0.id == "one" }?.outputs == ["v": "1.2.3", "exit-code": "0"])
    }

    @Test func resumeWithoutAnEarlierRunIsAnError() async throws {
        let fixture = try LaneFixture(["l": "steps:\n  - run: 'true'\n"])
        await #expect(throws: LaneRunError.nothingToResume(lane: "l")) {
            _ = try await fixture.run("l") { $0.resume = true }
        }
    }

    @Test func fromStartsAtANamedStep() async throws {
        let fixture = try LaneFixture(["l": """
            steps:
              - run: echo one >> log
                id: one
              - run: echo two >> log
                id: two
            """])
        let outcome = try await fixture.run("l") { $0.fromStep = "two" }
        #expect(outcome.summary.steps.map(\.status) == [.reused, .succeeded])
        #expect(try String(contentsOfFile: fixture.path + "/log", encoding: .utf8) == "two\n")
        await #expect(throws: LaneRunError.unknownStartStep("tow", suggestion: " Did you mean 'two'?")) {
            _ = try await fixture.run("l") { $0.fromStep = "tow" }
        }
    }

    @Test func missingSecretStopsBeforeAnyStep() async throws {
        let fixture = try LaneFixture(["l": "secrets: [SLIPWAY_TEST_ABSENT_SECRET]\nsteps:\n  - run: touch ran\n"])
        let before = try fixture.snapshot()
        await #expect(throws: LaneRunError.missingSecrets(["SLIPWAY_TEST_ABSENT_SECRET"])) {
            _ = try await fixture.run("l")
        }
        #expect(try fixture.snapshot() == before)
    }

    @Test func secretsAreNotAcceptedAsInputs() async throws {
        let fixture = try LaneFixture(["l": "secrets: [TOKEN]\nsteps:\n  - run: 'true'\n"], environment: ["TOKEN": "abc123"])
        do {
            _ = try await fixture.run("l") { $0.inputs = ["TOKEN": "abc123"] }
            Issue.record("expected an error")
        } catch {
            #expect(errorText(error) == "'TOKEN' is a secret: secrets are read from the environment variable TOKEN, never from the command line (where they would end up in shell history and process lists).")
        }
    }

    @Test func badInputValues() async throws {
        let fixture = try LaneFixture(["l": """
            inputs:
              bump: { choices: [major, minor], default: minor }
              count: { type: int, default: 1 }
              name: { type: string }
            steps:
              - run: 'true'
            """])
        do {
            _ = try await fixture.run("l") { $0.inputs = ["bump": "huge", "count": "x", "nmae": "a"] }
            Issue.record("expected an error")
        } catch {
            #expect(errorText(error) == """
                lane 'l' has no input 'nmae'. Did you mean 'name'? (its inputs are bump, count, name)
                input 'bump': 'huge' is not one of major, minor
                input 'count' expects an int, got 'x'
                lane 'l' needs input 'name': pass --input name=VALUE
                """)
        }
    }

}
