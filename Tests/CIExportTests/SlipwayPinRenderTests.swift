@testable import CIExport
import Basics
import Foundation
import Pins
import Testing
import TestSupport
import TestThreads

/// The install script as each engine's file carries it: read back with Yams, it is exactly the
/// lines `SlipwayBootstrapTests` runs with `sh` (Buildkite: with `$` written `$$`, which its
/// upload turns back), and the whole file is what the renderer meant, key by key.
@Suite("the install script in each engine's file", .dedicatedThreads)
struct SlipwayPinRenderTests {
    /// A pin whose URL uses every character the check admits besides letters and digits.
    static func pin() throws -> SlipwayPin {
        guard let version = SemanticVersion("1.2.3") else { throw FixtureFailure("version") }
        let sha = String(repeating: "0f", count: 32)
        return try SlipwayPin(LockedTool(
            source: .archive, version: version,
            archive: LockedArchive(executable: "dist/bin/slipway", platforms: [
                "linux-x86_64": LockedDownload(url: "https://example.com/a_b~c/s-1.2.3.tar.gz?token=a%2Fb&x=1+2,@y", sha256: sha),
                "macos-arm64": LockedDownload(url: "http://127.0.0.1:8080/s.zip", sha256: sha),
            ]),
            executables: ["linux-x86_64": sha, "macos-arm64": sha]))
    }

    private static func strings(_ tree: PipelineTree) -> [String] {
        switch tree {
        case .string(let text): return [text]
        case .list(let items): return items.flatMap(strings)
        case .map(let pairs): return pairs.flatMap { strings($0.value) }
        default: return []
        }
    }

    @Test(arguments: CIEngine.allCases)
    func theScriptReadsBackExactly(engine: CIEngine) async throws {
        let folder = try CIExportSupport.matrixProject()
        let plan = try CIPlanner.plan(try await CIExportSupport.exporter(projectDirectory: folder.path).validate("ios-matrix"))
        let options = CIExportOptions(slipwayPin: try Self.pin(), outputPath: CIExportSupport.outputPath("ios-matrix", engine))
        let text = try CIExporter.render(plan, engine: engine, options: options)
        let parsed = try #require(try PipelineTree.parse(text))
        let document: PipelineNode
        let script: String
        switch engine {
        case .githubActions:
            document = GitHubActionsRenderer.document(plan, options: options)
            script = SlipwayBootstrap.lines(try Self.pin(), handOff: .githubPath).joined(separator: "\n") + "\n"
        case .gitlab:
            document = GitLabRenderer.document(plan, options: options)
            script = SlipwayBootstrap.lines(try Self.pin(), handOff: .export).joined(separator: "\n") + "\n"
        case .buildkite:
            document = BuildkiteRenderer.document(plan, options: options)
            script = BuildkiteRenderer.escapingInterpolation(SlipwayBootstrap.lines(try Self.pin(), handOff: .export).joined(separator: "\n"))
        }
        #expect(parsed == PipelineTree(document))
        let found = Self.strings(parsed).filter { $0.contains("# Install slipway 1.2.3") }
        #expect(found.count == plan.jobs.count, "one install per job")
        for text in found {
            #expect(engine == .buildkite ? text.contains(script) : text == script)
            #expect(text.contains("url='https://example.com/a_b~c/s-1.2.3.tar.gz?token=a%2Fb&x=1+2,@y'"))
            #expect(text.contains("format='zip'"))
        }
        // Every job installs before anything calls slipway.
        for text in Self.strings(parsed) where text.contains("slipway run ") && engine == .buildkite {
            let install = try #require(text.range(of: "# Install slipway"))
            let run = try #require(text.range(of: "slipway run "))
            #expect(install.lowerBound < run.lowerBound)
        }
    }

    @Test func theScriptParsesWithSh() throws {
        for handOff in [SlipwayBootstrap.PathHandOff.githubPath, .export] {
            let folder = try TemporaryDirectory(prefix: "slipway-pin-syntax")
            let file = try folder.write("install.sh", SlipwayBootstrap.lines(try Self.pin(), handOff: handOff).joined(separator: "\n") + "\n")
            let result = try CommandResult.run("/bin/sh", ["-n", file])
            #expect(result.status == 0, "\(result.standardError)")
        }
    }
}
