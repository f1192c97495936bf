import Foundation

extension FileSystem {
    /// The bytes of the file at `path`, at most `budget.limit` of them: how a reader of one of
    /// the project's files asks for its kind's cap (`fs.read(path, as: .lockfile)`). Over the
    /// cap, the error names the file and its kind.
    /// - Throws: `ProjectFileError.tooLarge`, and what `read(_:limit:)` throws (through the
    ///   CLI's `ProjectFileSystem`: `ProjectFileError` for a link leading outside, a device).
    public func read(_ path: String, as budget: FileBudget) throws -> [UInt8] {
        do {
            return try read(path, limit: budget.limit)
        } catch FileSystemError.tooLarge(let shown, let limit) {
            throw ProjectFileError.tooLarge(path: shown, kind: budget.name, limit: limit)
        }
    }

    /// The file decoded as UTF-8, at most `budget.limit` bytes (see `read(_:as:)`).
    /// - Throws: what `read(_:as:)` throws; `FileSystemError.notUTF8` naming the first bad byte.
    public func readText(_ path: String, as budget: FileBudget) throws -> String {
        let bytes = try read(path, as: budget)
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        throw FileSystemError.notUTF8(path: path, location: firstInvalidUTF8(in: bytes))
    }
}
