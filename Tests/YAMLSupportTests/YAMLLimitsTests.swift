import Basics
import Testing
import YAMLSupport
import TestThreads

/// The reader refuses documents that would cost too much to read — an alias bomb, deep nesting,
/// a huge file — before Yams builds anything, with the place and what to do.
@Suite(.dedicatedThreads) struct YAMLLimitsTests {
    let reader = YAMLReader(documents: "lane files", complexKeyMessage: "a key must be a name")

    /// Nine nested anchors, each a list of nine aliases of the one before: 9^9 values once expanded.
    static let bomb = (["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        + (1...8).map { level in "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]" })
        .joined(separator: "\n") + "\nsteps:\n  - run: echo hi\n"

    func problem(_ text: String) -> String? {
        do {
            _ = try reader.parse(text, file: "lanes/bad.yml")
            return nil
        } catch {
            return (error as? DiagnosticsError)?.description ?? "\(error)"
        }
    }

    @Test func aliasBombIsRefusedWhereTheBudgetRunsOut() {
        // 90 + 819 + 7,380 values through the aliases of lines 2-4; the first '*a3' adds 7,381 more.
        #expect(problem(Self.bomb) == """
            lanes/bad.yml:5:10: error: the alias '*a3' makes the aliases of this file expand to more than 10000 values \
            (an alias repeats its anchor's whole value, and nested aliases multiply); lane files allow no more. \
            Write the values out, or use fewer, smaller aliases.
            """)
    }

    @Test func aliasBombAsAMappingKeyIsRefusedBeforeYamsHashesTheKey() {
        let text = Self.bomb.replacingOccurrences(of: "steps:", with: "? *a8\n: x\nsteps:")
        #expect(problem(text)?.hasPrefix("lanes/bad.yml:5:10: error: the alias '*a3' makes the aliases") == true)
    }

    @Test func deepNestingIsRefused() {
        let text = "steps: " + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "\n"
        // The root mapping is level 1, so the 64th '[' (column 71) opens level 65.
        #expect(problem(text) == """
            lanes/bad.yml:1:71: error: lists and mappings are nested more than 64 levels deep here; lane files are \
            limited to 64 levels. Flatten the structure.
            """)
    }

    @Test func deepNestingThroughAnAliasIsRefused() {
        let text = "a: &a " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n"
            + "b: " + String(repeating: "[", count: 30) + "*a" + String(repeating: "]", count: 30) + "\n"
        #expect(problem(text) == """
            lanes/bad.yml:2:34: error: the alias '*a' nests lists and mappings more than 64 levels deep once expanded; \
            lane files are limited to 64 levels. Flatten the structure.
            """)
    }

    @Test func oversizeDocumentIsRefusedWithTheLimit() {
        let text = "# " + String(repeating: "x", count: 5 << 20) + "\nsteps: []\n"
        #expect(problem(text) == "lanes/bad.yml:1:1: error: the file is 5.1 MiB; lane files are limited to 4 MiB of YAML. Make it smaller.")
        #expect(YAMLLimits.standard.violation(in: String(repeating: "#", count: 4 << 20), file: "f", documents: "d") == nil)
    }

    @Test func aModestAliasStillReadsAsItsValue() throws {
        let text = """
            defaults: &defaults
              platforms: [linux-x86_64, macos-arm64]
            tools:
              a: *defaults
              b: *defaults
            """
        let root = try #require(try reader.parse(text, file: "Toolfile"))
        guard case .mapping(let top, _) = root, case .mapping(let tools, _) = top[1].value else {
            Issue.record("not a mapping: \(root)")
            return
        }
        #expect(tools.map(\.key.text) == ["a", "b"])
        for tool in tools {
            guard case .mapping(let entries, _) = tool.value, case .sequence(let items, _) = entries.first?.value else {
                Issue.record("\(tool.key.text) is not the aliased mapping")
                continue
            }
            #expect(entries.map(\.key.text) == ["platforms"])
            #expect(items.compactMap(\.scalar?.text) == ["linux-x86_64", "macos-arm64"])
        }
    }

    @Test func syntaxErrorsKeepTheComposersWording() {
        #expect(problem("steps: [a, b\n") == """
            lanes/bad.yml:2:1: error: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence that \
            starts at 1:8). Check the indentation and quoting here.
            """)
    }
}
