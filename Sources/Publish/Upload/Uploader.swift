import Archives
import Basics
import Foundation

/// A file to upload and the name it gets at the destination.
public struct UploadFile: Sendable, Hashable {
    /// The absolute local path.
    public var path: String
    /// The name at the destination (an S3 key below the prefix, an asset name, ...).
    public var name: String
    /// Its size in bytes.
    public var size: Int64

    /// Creates a value.
    public init(path: String, name: String, size: Int64) {
        self.path = path
        self.name = name
        self.size = size
    }
}

/// What happened to one file.
public enum UploadAction: String, Sendable, Hashable {
    /// It was sent.
    case uploaded
    /// An identical copy was already there; nothing was sent.
    case skipped
    /// A different copy was there and was replaced, as asked.
    case replaced
}

/// The result for one file.
public struct UploadOutcome: Sendable, Hashable {
    /// The file.
    public var file: UploadFile
    /// Where it can be found now.
    public var url: String
    /// What was done.
    public var action: UploadAction

    /// Creates a value.
    public init(file: UploadFile, url: String, action: UploadAction) {
        self.file = file
        self.url = url
        self.action = action
    }
}

/// Called as a file's bytes go out.
public typealias UploadProgressHandler = @Sendable (UploadFile, HTTPTransferProgress) -> Void

extension Optional where Wrapped == UploadProgressHandler {
    /// A per-request handler that reports as `file`.
    func forFile(_ file: UploadFile) -> HTTPProgressHandler? {
        guard let handler = self else { return nil }
        return { @Sendable progress in handler(file, progress) }
    }
}

/// One upload destination (a folder, an S3 bucket, a GitHub release, an HTTP endpoint).
/// Re-running an upload after a partial failure must not duplicate anything: identical files
/// already at the destination are skipped.
public protocol Uploader: Sendable {
    /// Where `file` would go, for dry runs.
    func destination(of file: UploadFile) -> String
    /// Uploads the files, in order; returns one outcome per file.
    func upload(_ files: [UploadFile], progress: UploadProgressHandler?) async throws -> [UploadOutcome]
}

/// The embedded default destination: a folder on this machine (or a mounted share). Files are
/// copied in chunks to a temporary name and renamed, so a reader never sees half a file.
/// An identical file already there is left alone; a different one is an error unless
/// `overwrite` is set. Every destination is checked before the first copy starts.
public struct DirectoryUploader: Uploader {
    private let directory: String
    private let overwrite: Bool
    private let fileSystem: any FileSystem
    private let streams: any FileStreams

    /// Copies into `directory` (absolute; created when missing).
    public init(directory: String, overwrite: Bool, fileSystem: any FileSystem, streams: any FileStreams) {
        self.directory = directory
        self.overwrite = overwrite
        self.fileSystem = fileSystem
        self.streams = streams
    }

    public func destination(of file: UploadFile) -> String { directory + "/" + file.name }

    /// - Throws: `PublishError.destinationDiffers` (before anything is copied), `FileSystemError`.
    public func upload(_ files: [UploadFile], progress: UploadProgressHandler?) async throws -> [UploadOutcome] {
        var plan: [(UploadFile, UploadAction)] = []
        let hasher = FileHasher(streams: streams)
        for file in files {
            let target = destination(of: file)
            guard fileSystem.exists(target) else {
                plan.append((file, .uploaded))
                continue
            }
            let existing = try streams.info(target)
            if existing.size == file.size, try hasher.sha256(of: target) == hasher.sha256(of: file.path) {
                plan.append((file, .skipped))
            } else if overwrite {
                plan.append((file, .replaced))
            } else {
                throw PublishError.destinationDiffers(path: target, option: "overwrite")
            }
        }
        for (file, action) in plan where action != .skipped {
            try fileSystem.createDirectory((destination(of: file) as NSString).deletingLastPathComponent)
            try copy(file, progress: progress)
        }
        return plan.map { UploadOutcome(file: $0.0, url: URL(fileURLWithPath: destination(of: $0.0)).absoluteString, action: $0.1) }
    }

    private func copy(_ file: UploadFile, progress: UploadProgressHandler?) throws {
        let target = destination(of: file)
        let info = try streams.info(file.path)
        let input = try streams.openForReading(file.path)
        let output = try streams.createAtomically(target, permissions: info.isExecutable ? 0o755 : 0o644)
        var copied: Int64 = 0
        try input.forEachChunk { chunk in
            try output.write(chunk)
            copied += Int64(chunk.count)
            progress?(file, HTTPTransferProgress(completedBytes: copied, totalBytes: file.size))
        }
        try output.commit()
    }
}
