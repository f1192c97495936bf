import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// `$GITHUB_PATH` in the GitHub Actions SIMULATION (not GitHub), as GitHub documents it: a step
/// appends folders to the file; each is prepended to PATH for the job's later steps (the latest
/// first), not for the step that wrote it nor for other jobs.
@Suite("GitHub Actions simulation: $GITHUB_PATH (not GitHub)", .dedicatedThreads)
struct GitHubActionsPathTests {
    static let workflow = """
        name: path
        on: workflow_dispatch
        jobs:
          first:
            runs-on: ubuntu-latest
            steps:
              - name: Make tools
                shell: sh
                run: |
                  mkdir -p "$RUNNER_TEMP/a" "$RUNNER_TEMP/b"
                  printf '#!/bin/sh\\necho from-a\\n' > "$RUNNER_TEMP/a/hello"
                  printf '#!/bin/sh\\necho from-b\\n' > "$RUNNER_TEMP/b/hello"
                  chmod +x "$RUNNER_TEMP/a/hello" "$RUNNER_TEMP/b/hello"
                  echo "$RUNNER_TEMP/a" >> "$GITHUB_PATH"
                  if command -v hello; then exit 1; fi
              - name: Later step sees a
                run: test "$(hello)" = from-a
              - name: Add b
                run: echo "$RUNNER_TEMP/b" >> "$GITHUB_PATH"
              - name: The latest comes first
                run: test "$(hello)" = from-b
          second:
            runs-on: ubuntu-latest
            needs: [first]
            steps:
              - name: Another job starts without them
                run: if command -v hello; then exit 1; fi
        """

    @Test func foldersReachLaterStepsOfTheJobOnly() async throws {
        let origin = try GitFixture(prefix: "slipway-gha-path")
        try origin.commit("initial", files: ["README.md": "hello\n"])
        let simulator = try GitHubActionsSimulator(workflow: Self.workflow, origin: origin.path)
        let run = try await simulator.run()
        #expect(run.statuses == ["first": .succeeded, "second": .succeeded], "\(run["first"]?.log ?? "")\(run["second"]?.log ?? "")")
        #expect(run["first"]?.steps.map(\.status) == [.succeeded, .succeeded, .succeeded, .succeeded])
        #expect(run["first"]?.log.contains("Added to PATH ($GITHUB_PATH): ") == true)
    }
}
