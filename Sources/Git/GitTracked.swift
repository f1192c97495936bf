import Basics
import CLibgit2
import Foundation

extension GitRepository {
    /// True when git tracks `path` (relative to the repository root, or absolute inside it):
    /// the index has an entry for it, or, for a folder, for something below it. Used to refuse
    /// state files that came with the checkout (committed by whoever wrote the branch).
    /// - Throws: `GitError.pathOutsideWorkingDirectory`, `.bareRepository`, `.operationFailed`.
    public func tracks(_ path: String) throws -> Bool {
        let workdir = try requireWorkingDirectory(for: "read the index")
        let relative = try relativePath(path, workdir: workdir)
        return try withHandle { repo in
            let index = try reloadIndex(repo, workdir: workdir)
            defer { git_index_free(index) }
            if relative.isEmpty { return git_index_entrycount(index) > 0 }
            if git_index_get_bypath(index, relative, 0) != nil { return true }
            var position = 0
            return git_index_find_prefix(&position, index, relative + "/") == 0
        }
    }
}
