import CLibgit2

extension GitRepository {
    /// Whether git's ignore rules (`.gitignore` files, `.git/info/exclude`, `core.excludesFile`)
    /// ignore `path`, relative to the working directory; false for a bare repository or when
    /// the rules cannot be read. Nothing is written.
    public func isIgnored(_ path: String) -> Bool {
        guard workingDirectory != nil, !path.isEmpty else { return false }
        var ignored: Int32 = 0
        let code = withHandle { git_ignore_path_is_ignored(&ignored, $0, path) }
        return code == 0 && ignored != 0
    }
}
