import Basics
import Foundation
import Transport

/// How files go into S3.
public struct S3UploadSettings: Sendable, Hashable {
    /// A key prefix (a "folder"), e.g. `releases/1.2.0/`; empty for the bucket's root.
    public var prefix: String
    /// Files this large or larger are sent in parts.
    public var multipartThreshold: Int64
    /// The size of each part (S3's minimum is 5 MiB, except for the last).
    public var partSize: Int64
    /// Parts in flight at once.
    public var concurrency: Int
    /// Replace an object whose content differs (otherwise that is an error).
    public var overwrite: Bool
    /// A canned ACL such as `public-read`, or nil for the bucket's default.
    public var acl: String?

    /// Settings; by default parts of 16 MiB above 64 MiB, four at a time.
    public init(prefix: String = "", multipartThreshold: Int64 = 64 << 20, partSize: Int64 = 16 << 20, concurrency: Int = 4,
                overwrite: Bool = false, acl: String? = nil) {
        self.prefix = prefix
        self.multipartThreshold = multipartThreshold
        self.partSize = partSize
        self.concurrency = max(1, concurrency)
        self.overwrite = overwrite
        self.acl = acl
    }
}

/// Uploads to any S3-compatible bucket. Each object records the file's SHA-256 in
/// `x-amz-meta-sha256`; before sending, a HEAD request finds objects that are already there:
/// same size and same SHA-256 (or, for objects others uploaded, an ETag equal to the file's
/// MD5) means skip. Large files go up in parts with bounded concurrency; a failed multipart
/// upload is aborted, so nothing half-done stays in the bucket.
public struct S3Uploader: Uploader {
    private let client: S3Client
    private let settings: S3UploadSettings
    private let streams: any FileStreams

    /// An uploader over `client`.
    public init(client: S3Client, settings: S3UploadSettings, streams: any FileStreams) {
        self.client = client
        self.settings = settings
        self.streams = streams
    }

    func key(for file: UploadFile) -> String {
        guard !settings.prefix.isEmpty else { return file.name }
        return settings.prefix.hasSuffix("/") ? settings.prefix + file.name : settings.prefix + "/" + file.name
    }

    public func destination(of file: UploadFile) -> String { "s3://\(client.location.bucket)/\(key(for: file))" }

    /// - Throws: `PublishError.destinationDiffers` (found by the HEAD pass, before anything is
    ///   sent), `.refused`, `.failedAfterRetries`.
    public func upload(_ files: [UploadFile], progress: UploadProgressHandler?) async throws -> [UploadOutcome] {
        try await PublishError.fromTransport { try await uploadThroughS3(files, progress: progress) }
    }

    private func uploadThroughS3(_ files: [UploadFile], progress: UploadProgressHandler?) async throws -> [UploadOutcome] {
        let hasher = FileHasher(streams: streams)
        var plan: [(file: UploadFile, sha256: String, action: UploadAction)] = []
        for file in files {
            let sha256 = try hasher.sha256(of: file.path)
            let action: UploadAction
            if let existing = try await client.head(key: key(for: file)) {
                if try isSame(existing, file: file, sha256: sha256, hasher: hasher) {
                    action = .skipped
                } else if settings.overwrite {
                    action = .replaced
                } else {
                    throw PublishError.destinationDiffers(path: destination(of: file), option: "overwrite")
                }
            } else {
                action = .uploaded
            }
            plan.append((file, sha256, action))
        }
        var outcomes: [UploadOutcome] = []
        for entry in plan {
            if entry.action != .skipped {
                try await send(entry.file, sha256: entry.sha256, progress: progress)
            }
            outcomes.append(UploadOutcome(file: entry.file, url: client.location.url(key: key(for: entry.file)).absoluteString,
                                          action: entry.action))
        }
        return outcomes
    }

    private func isSame(_ object: S3ObjectInfo, file: UploadFile, sha256: String, hasher: FileHasher) throws -> Bool {
        guard object.size == file.size else { return false }
        if let recorded = object.metadata["sha256"] { return recorded == sha256 }
        // Uploaded by another tool: a single-part ETag is the MD5 of the content.
        guard !object.eTag.contains("-"), !object.eTag.isEmpty else { return false }
        return try hasher.md5(of: file.path) == object.eTag
    }

    private func headers(for file: UploadFile, sha256: String) -> HTTPHeaders {
        var headers: HTTPHeaders = ["Content-Type": ContentType.of(file.name), "x-amz-meta-sha256": sha256]
        if let acl = settings.acl { headers["x-amz-acl"] = acl }
        return headers
    }

    private func send(_ file: UploadFile, sha256: String, progress: UploadProgressHandler?) async throws {
        let key = key(for: file)
        let action = "upload of '\(file.path)' to '\(client.location.url(key: key).absoluteString)'"
        if file.size < settings.multipartThreshold {
            try await client.putObject(key: key, file: file.path, sha256: sha256, headers: headers(for: file, sha256: sha256),
                                       action: action, progress: progress.forFile(file))
            return
        }
        let uploadID = try await client.createMultipartUpload(key: key, headers: headers(for: file, sha256: sha256), action: action)
        do {
            let eTags = try await uploadParts(file, key: key, uploadID: uploadID, action: action, progress: progress)
            try await client.completeMultipartUpload(key: key, uploadID: uploadID, eTags: eTags, action: action)
        } catch {
            await client.abortMultipartUpload(key: key, uploadID: uploadID)
            throw error
        }
    }

    /// Sends the parts, at most `concurrency` at a time; each part is read when its turn comes,
    /// so memory stays at `concurrency × partSize`.
    private func uploadParts(_ file: UploadFile, key: String, uploadID: String, action: String,
                             progress: UploadProgressHandler?) async throws -> [String] {
        let input = try streams.openForReading(file.path)
        let partSize = max(settings.partSize, 5 << 20)
        let count = Int((file.size + partSize - 1) / partSize)
        let tally = PartProgress(file: file, parts: count, handler: progress)
        let client = self.client
        return try await withThrowingTaskGroup(of: (Int, String).self) { group in
            var eTags = [String](repeating: "", count: count)
            var next = 0
            func launch(_ index: Int) {
                group.addTask {
                    let bytes = try input.read(at: Int64(index) * partSize, count: Int(partSize))
                    let eTag = try await client.uploadPart(key: key, uploadID: uploadID, number: index + 1, bytes: bytes,
                                                           action: "\(action) (part \(index + 1) of \(count))") {
                        tally.update(part: index, sent: $0.completedBytes)
                    }
                    return (index, eTag)
                }
            }
            while next < min(settings.concurrency, count) { launch(next); next += 1 }
            while let (index, eTag) = try await group.next() {
                eTags[index] = eTag
                if next < count { launch(next); next += 1 }
            }
            return eTags
        }
    }
}

/// Sums the progress of parts in flight into one report per file; a part re-sent after a
/// failure counts once, at the most it reached, so the sum never goes back.
final class PartProgress: Sendable {
    private let file: UploadFile
    private let handler: UploadProgressHandler?
    private let sent: Locked<[Int64]>

    init(file: UploadFile, parts: Int, handler: UploadProgressHandler?) {
        self.file = file
        self.handler = handler
        self.sent = Locked([Int64](repeating: 0, count: parts))
    }

    /// Reports under the lock: parts run concurrently, and a sum handed out after the lock could
    /// reach the handler after a larger one from another part (progress going back).
    func update(part: Int, sent bytes: Int64) {
        guard let handler else { return }
        sent.withLock { sent in
            sent[part] = max(sent[part], bytes)
            handler(file, HTTPTransferProgress(completedBytes: min(file.size, sent.reduce(0, +)), totalBytes: file.size))
        }
    }
}

/// The Content-Type a release file is served with.
enum ContentType {
    static func of(_ name: String) -> String {
        let lower = name.lowercased()
        let table: [(String, String)] = [
            (".tar.gz", "application/gzip"), (".tgz", "application/gzip"), (".gz", "application/gzip"),
            (".zip", "application/zip"), (".json", "application/json"), (".txt", "text/plain; charset=utf-8"),
            (".sig", "text/plain; charset=utf-8"), (".minisig", "text/plain; charset=utf-8"),
            (".asc", "text/plain; charset=utf-8"), ("sha256sums", "text/plain; charset=utf-8"), (".md", "text/markdown; charset=utf-8"),
            (".pub", "text/plain; charset=utf-8"), (".dmg", "application/x-apple-diskimage"), (".pkg", "application/octet-stream"),
        ]
        return table.first { lower.hasSuffix($0.0) }?.1 ?? "application/octet-stream"
    }
}
