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
}
