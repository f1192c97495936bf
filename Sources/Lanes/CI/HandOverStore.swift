import Basics
import Crypto
import Foundation
import Git

/// Reads and writes the hand-over directory `.slipway/ci/` of a project: `<step id>.json`
/// records and `<step id>.pack` git packs.
///
/// The folder is in the checkout: nothing is read or written through a symbolic link (the
/// folders from the project down are checked, files opened with `O_NOFOLLOW`), records are
/// read with a size limit, and a record that git tracks (committed to the branch, not restored
/// from an earlier job's artifacts) is refused.
struct HandOverStore: Sendable {
    /// The largest record read (16 MiB) and the largest pack (1 GiB).
    static let recordLimit = 16 << 20, packLimit = 1 << 30

    /// The folder, relative to the project.
    static let folder = ".slipway/ci"

    let fileSystem: any FileSystem
    let projectDirectory: String

    var directory: String { projectDirectory + "/" + Self.folder }

    /// The record's path as shown in messages (relative to the project).
    func displayPath(step: String, suffix: String = "json") -> String { "\(Self.folder)/\(step).\(suffix)" }

    /// Checks that no folder from the project down to `path` is a symbolic link.
    private func checkPath(_ path: String, display: String) throws {
        do { try StateFiles.checkPath(path, below: projectDirectory) } catch let error as StateFileError {
            throw HandOverError.unsafeRecord(file: display, reason: error.reason)
        }
    }

    /// Every record in the folder, by step id; the format version is checked, and that git
    /// (`repository`) does not track it, nothing else.
    /// - Throws: `HandOverError.unreadableRecord`, `.unknownVersion`, `.unsafeRecord`, `.trackedRecord`.
    func readAll(repository: GitRepository? = nil) throws -> [String: HandOverRecord] {
        try checkPath(directory, display: Self.folder)
        guard fileSystem.kind(of: directory) == .directory else { return [:] }
        var records: [String: HandOverRecord] = [:]
        for name in try fileSystem.contents(ofDirectory: directory) where name.hasSuffix(".json") {
            let display = "\(Self.folder)/\(name)"
            let path = directory + "/" + name
            if let repository, (try? repository.tracks(path)) == true { throw HandOverError.trackedRecord(file: display) }
            let bytes: Data
            do {
                bytes = Data(try StateFiles.read(path, limit: Self.recordLimit) ?? [])
            } catch let error as StateFileError {
                throw HandOverError.unsafeRecord(file: display, reason: error.reason)
            }
            struct Probe: Decodable { var version: Int? }
            guard let probe = try? JSONDecoder().decode(Probe.self, from: bytes) else {
                throw HandOverError.unreadableRecord(file: display, detail: "not a JSON object")
            }
            guard probe.version == HandOverRecord.currentVersion else {
                throw HandOverError.unknownVersion(file: display, version: probe.version ?? 0)
            }
            do {
                let record = try JSONDecoder().decode(HandOverRecord.self, from: bytes)
                records[record.stepID] = record
            } catch {
                throw HandOverError.unreadableRecord(file: display, detail: Self.describe(error))
            }
        }
        return records
    }

    /// Writes `record` as `<step id>.json`, atomically.
    func write(_ record: HandOverRecord) throws {
        try checkPath(directory, display: Self.folder)
        try fileSystem.createDirectory(directory)
        try checkPath(directory, display: Self.folder)
        let bytes = Array(try JSONFormatting.encoder().encode(record)) + [UInt8(ascii: "\n")]
        try fileSystem.writeAtomically(bytes, to: directory + "/\(record.stepID).json")
    }

    /// Writes a git pack as `<step id>.pack`, atomically.
    func writePack(_ bytes: [UInt8], step: String) throws {
        try checkPath(directory, display: Self.folder)
        try fileSystem.createDirectory(directory)
        try checkPath(directory, display: Self.folder)
        try fileSystem.writeAtomically(bytes, to: directory + "/\(step).pack")
    }

    /// The pack of `step`. - Throws: `HandOverError.missingPack` when it is not there.
    func readPack(step: String) throws -> [UInt8] {
        let path = directory + "/\(step).pack"
        let display = displayPath(step: step, suffix: "pack")
        try checkPath(path, display: display)
        guard fileSystem.kind(of: path) == .file else { throw HandOverError.missingPack(file: display, step: step) }
        do {
            return try StateFiles.read(path, limit: Self.packLimit) ?? []
        } catch let error as StateFileError {
            throw HandOverError.unsafeRecord(file: display, reason: error.reason)
        }
    }

    /// The SHA-256 (hex) of the lane file `file` (relative to the project, or absolute).
    func laneDigest(file: String) throws -> String {
        let path = file.hasPrefix("/") ? file : projectDirectory + "/" + file
        return SHA256.hash(data: try fileSystem.read(path)).map { String(format: "%02x", $0) }.joined()
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "it has no '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
             DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "'\(path)': \(context.debugDescription)"
        default: return errorText(error)
        }
    }
}
