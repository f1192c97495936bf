import Basics
import Crypto
import Foundation
import Transport

extension BuildUploader {
    /// Sends every operation's byte range, `options.concurrency` at a time, each streamed from
    /// disk and retried on 5xx and dropped connections; returns how many were sent.
    func sendParts(_ operations: [BuildUploadOperation], of info: IPAInfo) async throws -> Int {
        for operation in operations where operation.offset < 0 || operation.length < 0 || operation.offset + operation.length > info.fileSize {
            throw BuildUploadError.unexpectedAnswer(
                step: "POST /v1/buildUploadFiles",
                problem: "an upload operation covers bytes \(operation.offset)..<\(operation.offset + operation.length) of a \(info.fileSize)-byte file")
        }
        let tally = ByteTally(lengths: operations.map(\.length))
        let progress = self.progress, total = info.fileSize
        let retrying = RetryingHTTPClient(client: client.http, policy: client.retry)
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func start() {
                guard next < operations.count else { return }
                let index = next, operation = operations[next]
                next += 1
                group.addTask {
                    try await Self.send(operation, path: info.path, with: retrying) { sent in
                        tally.update(part: index, sent: sent) { progress(.bytes(sent: $0, total: total)) }
                    }
                    tally.update(part: index, sent: operation.length) { progress(.bytes(sent: $0, total: total)) }
                }
            }
            for _ in 0..<max(1, options.concurrency) { start() }
            while try await group.next() != nil { start() }
        }
        return operations.count
    }

    /// Sends one upload operation's byte range of the file at `path`, with its method and
    /// `requestHeaders`, retried on 5xx and dropped connections. Shared with `ScreenshotSync`.
    static func send(_ operation: BuildUploadOperation, path: String, with client: RetryingHTTPClient,
                     step: String = "POST /v1/buildUploadFiles", progress: @escaping @Sendable (Int64) -> Void) async throws {
        guard let url = URL(string: operation.url) else {
            throw BuildUploadError.unexpectedAnswer(step: step, problem: "'\(operation.url)' is not a URL")
        }
        var headers = HTTPHeaders()
        for header in operation.headers { headers.add(name: header.name, value: header.value) }
        let action = "upload bytes \(operation.offset)..<\(operation.offset + operation.length) of '\(path)'"
        _ = try await client.sendExpectingSuccess(action, progress: { progress($0.completedBytes) }) {
            HTTPRequest(method: HTTPMethod(rawValue: operation.method), url: url, headers: headers,
                        body: .fileRange(path: path, offset: operation.offset, length: operation.length), timeout: .seconds(120))
        }
    }

    /// Tells Apple the file is complete, with its SHA-256.
    func commit(_ fileID: String, info: IPAInfo, sha256 digest: String) async throws {
        let body = JSONAPI.document(
            type: "buildUploadFiles", id: fileID,
            attributes: ["uploaded": true, "sourceFileChecksums": ["file": ["hash": .string(digest), "algorithm": "SHA_256"]]])
        _ = try await client.send(AppStoreConnectRequest(
            .patch, "/v1/buildUploadFiles/\(fileID)", body: body, action: "commit the upload of '\(info.fileName)'",
            roles: Self.uploadRoles))
        progress(.note("committed \(info.fileName) (SHA-256 \(digest.prefix(12))…)"))
    }

    /// The file's SHA-256 in hex, read in 1 MiB pieces on a thread of its own.
    static func sha256(of path: String) async throws -> String {
        try await BlockingWork.run(name: "slipway-sha256") {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw BuildUploadError.missingFile(path: path) }
            defer { try? handle.close() }
            var hasher = SHA256()
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
            return hasher.finalize().map { String(format: "%02x", $0) }.joined()
        }
    }
}

/// Bytes sent per part, summed; parts report from their own threads. A part re-sent after a
/// failure counts once, at the most it ever reached and never more than its length, so the sum
/// never goes back and never passes the file's size.
final class ByteTally: Sendable {
    private let lengths: [Int64]
    private let sent: Locked<[Int64]>

    init(lengths: [Int64]) {
        self.lengths = lengths
        sent = Locked(Array(repeating: 0, count: lengths.count))
    }

    /// Records `bytes` sent for `part` and tells `report` the new total, under the lock: parts
    /// run concurrently, and a total handed out after the lock could reach the reader after a
    /// larger one from another part (progress going back).
    func update(part: Int, sent bytes: Int64, report: (Int64) -> Void) {
        sent.withLock { sent in
            sent[part] = min(lengths[part], max(sent[part], bytes))
            report(sent.reduce(0, +))
        }
    }
}
