import Foundation
@testable import Steps
import TestSupport
import TestThreads
import Testing

/// Every step id the README and docs/*.md name is a step Slipway has (on some platform), so a
/// renamed or misspelt step in the docs fails here rather than in a user's lane.
@Suite(.dedicatedThreads) struct DocumentedStepIDsTests {
    /// Ids of every built-in on every platform (macOS-only ones included, whatever this is).
    static var allIDs: Set<String> {
        Set((StepRegistry.builtInTypes + StepRegistry.macOSOnlyBuiltInTypes).map { $0.description.id })
    }

    /// The step ids `text` names: `` `x.y` `` whose namespace `x` is one of `namespaces`, and
    /// `- x.y:` list items inside ```yaml blocks (lane steps). Each with its 1-based line.
    static func mentions(in text: String, namespaces: Set<String>) throws -> [(line: Int, id: String)] {
        let ticked = try Regex("`([a-z][a-z0-9-]*)\\.([a-z][a-z0-9.-]*)`")
        let listed = try Regex("^\\s*-\\s+([a-z][a-z0-9-]*(?:\\.[a-z0-9-]+)+):")
        var found: [(line: Int, id: String)] = []
        var inYAML = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inYAML = !inYAML && (trimmed == "```yaml" || trimmed == "```yml")
                continue
            }
            for match in line.matches(of: ticked) {
                guard let namespace = match.output[1].substring, let rest = match.output[2].substring,
                      namespaces.contains(String(namespace)) else { continue }
                found.append((index + 1, "\(namespace).\(rest)"))
            }
            if inYAML, let match = line.firstMatch(of: listed), let id = match.output[1].substring {
                found.append((index + 1, String(id)))
            }
        }
        return found
    }

    static var namespaces: Set<String> {
        Set(allIDs.compactMap { $0.split(separator: ".").count > 1 ? String($0.split(separator: ".")[0]) : nil })
    }

    @Test func everyStepTheDocsNameExists() throws {
        let root = Corpus.repositoryRoot
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }.sorted()
        #expect(docs.count > 5, "docs/*.md found at \(root)/docs")
        var unknown: [String] = []
        var seen = Set<String>()
        for file in ["README.md"] + docs.map({ "docs/" + $0 }) {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for mention in try Self.mentions(in: text, namespaces: Self.namespaces) {
                seen.insert(mention.id)
                if !Self.allIDs.contains(mention.id) { unknown.append("\(file):\(mention.line): `\(mention.id)`") }
            }
        }
        #expect(unknown == [], "the docs name steps that do not exist; 'slipway steps' lists the real ids")
        // The scan really reads the docs: these are named there.
        #expect(seen.isSuperset(of: ["version.bump", "git.commit", "swift.build", "sign.codesign", "xcode.archive", "appstore.upload"]))
    }

    @Test func aMisspeltStepIsFound() throws {
        let text = """
            Sign with `sign.codesgn`, not `Package.swift` or `release.yml`.
            ```yaml
            steps:
              - xcode.archve: { scheme: App }
              - run: echo
            ```
            - not.yaml: outside a block
            """
        let mentions = try Self.mentions(in: text, namespaces: Self.namespaces)
        #expect(mentions.map { "\($0.line) \($0.id)" } == ["1 sign.codesgn", "4 xcode.archve"])
        #expect(mentions.allSatisfy { !Self.allIDs.contains($0.id) })
    }
}
