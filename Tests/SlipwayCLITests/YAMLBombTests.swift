import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// A lane file a pull request could add to take a CI runner down: nine nested anchors whose
/// aliases expand to 9^9 values. `slipway validate` refuses it at once (exit 2, the place, what to
/// do) and changes nothing; before the limits it ran past 30 s and 6 GB.
@Suite(.dedicatedThreads) struct YAMLBombTests {
    static let bomb = (["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        + (1...8).map { level in "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]" })
        .joined(separator: "\n") + "\nsteps:\n  - run: touch ran\n"

    @Test func validateRefusesALaneFileAliasBomb() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-bomb")
        try folder.write("lanes/ok.yml", "steps:\n  - run: touch ran\n")
        try folder.write("lanes/bomb.yml", Self.bomb)
        let before = try Snapshot.of(folder.path)
        // Run through the async runner: the child is reaped on a thread of its own, not on the
        // cooperative pool this test runs on.
        let result = try await LocalProcessRunner().run(ProcessSpec(
            executable: Binaries.slipway, arguments: ["validate"], environment: ProcessInfo.processInfo.environment,
            workingDirectory: folder.path))
        #expect(result.status == .exited(2), "\(result.errorText)")
        #expect(result.errorText.contains("""
            lanes/bomb.yml:5:10: error: the alias '*a3' makes the aliases of this file expand to more than 10000 values \
            (an alias repeats its anchor's whole value, and nested aliases multiply); lane files allow no more. \
            Write the values out, or use fewer, smaller aliases.
            """), "\(result.errorText)")
        #expect(try Snapshot.of(folder.path) == before)
    }
}
