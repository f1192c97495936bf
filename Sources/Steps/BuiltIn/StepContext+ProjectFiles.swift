import Basics
import Foundation

extension StepContext {
    /// The door for the project's files: the CLI's (its file system is a `ProjectFileSystem`
    /// rooted at the project folder), else one rooted at the lane's folder over the context's
    /// file system (tests, embedders).
    var projectFiles: ProjectFiles {
        (fileSystem as? ProjectFileSystem)?.files ?? ProjectFiles(root: workingDirectory, fileSystem: fileSystem)
    }

    /// `resolve(path)` checked as a file the step will write: its folder's real path stays
    /// inside the project and nothing at the name is a link. Returns the path to write; a path
    /// outside the project that the lane names outright is returned as it is.
    /// - Throws: `ProjectFileError`.
    func checkedOutput(_ path: String) throws -> String {
        try projectFiles.checkedForWriting(resolve(path))
    }

    /// `resolve(path)`, after checking it as a file the step reads by path (a built product
    /// streamed to a server, not read through the file system): when inside the project, a
    /// regular file whose real path stays inside. A missing file is left to the reader, which
    /// says so in its own words.
    /// - Throws: `ProjectFileError`.
    func checkedInput(_ path: String) throws -> String {
        let resolved = resolve(path)
        if fileSystem.kind(of: resolved) != nil { _ = try projectFiles.checkedForReading(resolved) }
        return resolved
    }
}
