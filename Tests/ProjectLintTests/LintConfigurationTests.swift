import Basics
@testable import ProjectLint
import TestThreads
import Testing

@Suite("Lint configuration (.slipway/lint.yml)", .dedicatedThreads)
struct LintConfigurationTests {
    func messages(_ text: String) -> [String] {
        do {
            _ = try LintConfiguration.parse(text, file: ".slipway/lint.yml")
            return []
        } catch let error as DiagnosticsError {
            return error.diagnostics.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    @Test func readsSeveritiesOffAndIgnores() throws {
        let configuration = try LintConfiguration.parse(
            "rules:\n  empty-group: off\n  unsorted-children: error\n  missing-file: note\nignore:\n  - Pods/**\n", file: "lint.yml")
        #expect(configuration.severity(of: EmptyGroupRule()) == nil)
        #expect(configuration.severity(of: UnsortedChildrenRule()) == .error)
        #expect(configuration.severity(of: MissingFileRule()) == .note)
        #expect(configuration.severity(of: OrphanedObjectRule()) == .warning)
        #expect(configuration.severity(of: ProjectSettingsRule()) == nil, "opt-in rules stay off")
        #expect(configuration.ignore == ["Pods/**"])
    }

    @Test func unknownRuleSuggestsTheNearest() {
        #expect(messages("rules:\n  missing-flie: error\n") == [
            ".slipway/lint.yml:2:3: error: unknown rule 'missing-flie'; 'slipway xcodeproj lint --rules' lists them. Did you mean 'missing-file'?",
        ])
    }

    @Test func badSeverityUnknownKeyAndBadIgnoreAreAllReported() {
        #expect(messages("rules:\n  empty-group: loud\nignores: []\n") == [
            ".slipway/lint.yml:2:16: error: rule 'empty-group' is set to 'loud'; use off, note, warning or error",
            ".slipway/lint.yml:3:1: error: unknown key 'ignores'; a lint configuration has 'rules' and 'ignore'. Did you mean 'ignore'?",
        ])
        #expect(messages("ignore: Pods\n") == [".slipway/lint.yml:1:9: error: 'ignore' must be a list of paths, not a string"])
        #expect(messages("- rules\n") == [".slipway/lint.yml:1:1: error: a lint configuration must be a mapping with 'rules' and 'ignore', not a list"])
    }
}
