import Basics
import Foundation

/// One line of a SHA256SUMS file.
public struct ChecksumLine: Sendable, Hashable {
    /// The SHA-256, lower-case hex.
    public var sha256: String
    /// The file's path relative to the checksum file's folder.
    public var name: String

    /// Creates a line.
    public init(sha256: String, name: String) {
        self.sha256 = sha256
        self.name = name
    }
}

/// A SHA256SUMS file in the format of GNU coreutils' `sha256sum` (`<hex>  <name>`, two spaces:
/// text mode), so that `sha256sum -c SHA256SUMS` checks it in its folder. Lines are sorted by
/// name, so the file is the same whatever order the files were given in.
public struct ChecksumFile: Sendable {
    private let fileSystem: any FileSystem
    private let hasher: FileHasher

    /// A writer over the given file access.
    public init(fileSystem: any FileSystem, streams: any FileStreams) {
        self.fileSystem = fileSystem
        self.hasher = FileHasher(streams: streams)
    }

    /// Hashes `files` (absolute paths) and writes the checksum file at `output` atomically.
    /// The output itself is skipped when a pattern matched it.
    /// - Throws: `PublishError.notBesideChecksums` for a file outside the output's folder
    ///   (checked before anything is hashed or written); `FileSystemError`.
    @discardableResult
    public func write(files: [String], to output: String) throws -> [ChecksumLine] {
        let folder = (output as NSString).deletingLastPathComponent
        var named: [(path: String, name: String)] = []
        for path in files where path != output {
            guard let name = Self.relative(path, to: folder) else {
                throw PublishError.notBesideChecksums(file: path, folder: folder)
            }
            named.append((path, name))
        }
        var lines: [ChecksumLine] = []
        for entry in named.sorted(by: { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }) {
            lines.append(ChecksumLine(sha256: try hasher.sha256(of: entry.path), name: entry.name))
        }
        try fileSystem.writeAtomically(Self.render(lines), to: output)
        return lines
    }

    /// The text of a checksum file.
    public static func render(_ lines: [ChecksumLine]) -> String {
        lines.map { "\($0.sha256)  \($0.name)\n" }.joined()
    }

    /// `path` relative to `folder`, or nil when it is not inside it.
    static func relative(_ path: String, to folder: String) -> String? {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        guard path.hasPrefix(prefix) else { return nil }
        return String(path.dropFirst(prefix.count))
    }
}
