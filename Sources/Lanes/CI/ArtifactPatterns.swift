import Basics
import Foundation

/// Matches a step's `artifacts:` patterns against the project with the project's one glob
/// (`ProjectGlob`, docs/patterns.md). A pattern may name a folder (an `.xcarchive`, say),
/// which then counts as one match.
enum ArtifactPatterns {
    /// The `patterns` that match nothing, every path the others match (relative to `root`,
    /// sorted), and the first error that is not "matches nothing" (a link out of the project, a
    /// folder link named literally, too many matches), as its message.
    static func check(_ patterns: [String], in root: String,
                      fileSystem: any FileSystem) -> (unmatched: [String], paths: [String], problem: String?) {
        let glob = ProjectGlob(fileSystem: fileSystem, root: root)
        var unmatched: [String] = []
        var paths = Set<String>()
        var problem: String?
        for pattern in patterns {
            do {
                paths.formUnion(try glob.expand([pattern], in: root, includeDirectories: true).matches.map(\.relative))
            } catch ProjectGlobError.noMatch {
                unmatched.append(pattern)
            } catch {
                if problem == nil { problem = "artifact pattern '\(pattern)': \(errorText(error))" }
            }
        }
        return (unmatched, paths.sorted(), problem)
    }
}
