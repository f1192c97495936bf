import Basics
import Crypto
import Foundation

/// The file to notarize: a `.zip`, `.pkg` or `.dmg`, with its size and SHA-256.
public struct NotaryFile: Sendable, Hashable {
    /// The extensions the notary service takes.
    public static let allowedExtensions = ["zip", "pkg", "dmg"]

    /// The path.
    public var path: String
    /// The size in bytes.
    public var size: Int64
    /// The SHA-256, lower-case hex.
    public var sha256: String

    /// The file's name (what the submission is called by default).
    public var name: String { (path as NSString).lastPathComponent }

    /// Creates a value.
    public init(path: String, size: Int64, sha256: String) {
        self.path = path
        self.size = size
        self.sha256 = sha256
    }

    /// Checks the name alone, without touching the disk (for validation): a `.app` is a folder
    /// to zip, any other extension than zip, pkg or dmg is refused.
    /// - Throws: `NotaryError.folder` or `.unsupportedType`.
    public static func checkName(_ path: String) throws {
        let ext = (path as NSString).pathExtension.lowercased()
        var trimmed = path
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        if (trimmed as NSString).pathExtension.lowercased() == "app" { throw NotaryError.folder(path: trimmed) }
        guard allowedExtensions.contains(ext) else { throw NotaryError.unsupportedType(path: path) }
    }

    /// Checks the file at `path` and reads its SHA-256 in 1 MiB pieces on a thread of its own.
    /// - Throws: `NotaryError.missingFile`, `.folder`, `.unsupportedType`.
    public static func read(_ path: String) async throws -> NotaryFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw NotaryError.missingFile(path: path) }
        if isDirectory.boolValue { throw NotaryError.folder(path: path) }
        try checkName(path)
        return try await BlockingWork.run(name: "slipway-notary-sha256") {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw NotaryError.missingFile(path: path) }
            defer { try? handle.close() }
            var hasher = SHA256()
            var size: Int64 = 0
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(data: chunk)
                size += Int64(chunk.count)
            }
            return NotaryFile(path: path, size: size, sha256: hasher.finalize().map { String(format: "%02x", $0) }.joined())
        }
    }
}
