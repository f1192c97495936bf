import Foundation
import Basics
import Lanes
import Steps

/// `slipway ci export` and `slipway ci check`: a lane validated for every platform, laid out
/// as jobs and written for one CI engine.
public struct CIExporter: Sendable {
    let store: LaneStore
    let registry: StepRegistry
    let fileSystem: any FileSystem

    /// An exporter for the lanes in `store`, with the steps of `registry`.
    public init(store: LaneStore, registry: StepRegistry, fileSystem: any FileSystem) {
        self.store = store
        self.registry = registry
        self.fileSystem = fileSystem
    }

    /// Loads and validates lane `name` without tying it to this machine's platform (each step
    /// will run on a runner of its own platforms).
    public func validate(_ name: String) async throws -> ValidatedLane {
        let lane = try store.load(name)
        return try await LaneValidator(registry: registry, platform: nil, projectDirectory: store.projectDirectory,
                                       fileSystem: fileSystem).validate(lane)
    }

    /// The pipeline file for lane `name`: the same bytes on every run for the same lane and
    /// options. Unless `options` say how jobs get `slipway` (`slipwaySetup`, `slipwayOnPath`,
    /// `slipwayPin`), every job installs the Slipway that Toolfile.lock pins; without a pin
    /// that is `CIExportError.slipwayNotPinned`.
    public func export(_ name: String, to engine: CIEngine, options: CIExportOptions) async throws -> String {
        let plan = try CIPlanner.plan(try await validate(name))
        return try Self.render(plan, engine: engine, options: try resolvingSlipway(options))
    }

    /// Writes `text` to `output` (relative to the project, or absolute), making its folder and
    /// replacing the file atomically. Throws `CIExportError.outputThroughLink` when a folder on
    /// the way inside the project is a symbolic link: a checkout could point `.github/workflows`
    /// anywhere, and the file would be written there.
    public func write(_ text: String, to output: String) throws {
        var path = output
        if !output.hasPrefix("/") {
            path = store.projectDirectory
            let parts = output.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            for (index, part) in parts.enumerated() {
                path += "/" + part
                if index < parts.count - 1, fileSystem.kind(of: path) == .symbolicLink {
                    throw CIExportError.outputThroughLink(output, link: parts[...index].joined(separator: "/"))
                }
            }
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !fileSystem.isDirectory(folder) { try fileSystem.createDirectory(folder) }
        try fileSystem.writeAtomically(Array(text.utf8), to: path)
    }

    /// The largest committed file `check` reads: far more than any pipeline Slipway writes.
    public static let maxCommittedBytes = 4 * 1024 * 1024

    /// Compares `file` with what `export` would write, byte for byte; nil when equal, a unified
    /// diff (from the file to the expected text) otherwise. A missing file reads as empty.
    /// Throws `CIExportError.committedFileNotRegular` for a symbolic link, folder or device and
    /// `.committedFileTooLarge` past `maxCommittedBytes`, before reading it.
    public func check(_ name: String, to engine: CIEngine, options: CIExportOptions, file: String) async throws -> String? {
        let expected = try await export(name, to: engine, options: options)
        let path = file.hasPrefix("/") ? file : store.projectDirectory + "/" + file
        let actual = try committedBytes(path, shownAs: file)
        if actual.elementsEqual(expected.utf8) { return nil }
        // Bytes that are not UTF-8 show as U+FFFD in the diff; the comparison above used the bytes.
        return LineDiff.unified(from: String(decoding: actual, as: UTF8.self), to: expected, fromName: file,
                                toName: "slipway ci export \(name) --to \(engine.rawValue)")
    }

    private func committedBytes(_ path: String, shownAs file: String) throws -> [UInt8] {
        guard let status = fileSystem.status(of: path) else { return [] }
        guard status.kind == .file else { throw CIExportError.committedFileNotRegular(file) }
        if let size = status.details?.size, size > Int64(Self.maxCommittedBytes) {
            throw CIExportError.committedFileTooLarge(file, bytes: Int(size), limit: Self.maxCommittedBytes)
        }
        let bytes = try fileSystem.read(path)
        // It may have grown since; what was read is what is judged.
        guard bytes.count <= Self.maxCommittedBytes else {
            throw CIExportError.committedFileTooLarge(file, bytes: bytes.count, limit: Self.maxCommittedBytes)
        }
        return bytes
    }

    /// `plan` written for `engine`.
    /// Throws `CIExportError.unsafePipelineText` or `.duplicatePipelineKey` when text from the
    /// plan or the options would change the file's structure.
    public static func render(_ plan: CIPlan, engine: CIEngine, options: CIExportOptions) throws -> String {
        switch engine {
        case .githubActions: return try GitHubActionsRenderer.render(plan, options: options)
        case .gitlab: return try GitLabRenderer.render(plan, options: options)
        case .buildkite: return try BuildkiteRenderer.render(plan, options: options)
        }
    }
}
