import Foundation

extension FileSystem {
    /// The bytes at `path`, at most `budget.limit` of them: the read a project file of a known
    /// kind asks for, so that a hostile one is refused at its kind's cap (a VERSION file at
    /// 4 MiB, not the file system's default). Through the CLI's `ProjectFileSystem` the door's
    /// other rules (inside the project, a regular file) apply too.
    /// - Throws: `ProjectFileError.tooLarge` naming the file and its kind; what `read(_:limit:)` throws.
    public func read(_ path: String, as budget: FileBudget) throws -> [UInt8] {
        do {
            return try read(path, limit: budget.limit)
        } catch FileSystemError.tooLarge(let named, let limit) {
            throw ProjectFileError.tooLarge(path: named, kind: budget.name, limit: limit)
        }
    }

    /// `read(_:as:)` decoded as UTF-8.
    /// - Throws: what `read(_:as:)` throws; `FileSystemError.notUTF8` naming the first bad byte.
    public func readText(_ path: String, as budget: FileBudget) throws -> String {
        let bytes = try read(path, as: budget)
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        throw FileSystemError.notUTF8(path: path, location: firstInvalidUTF8(in: bytes))
    }
}
