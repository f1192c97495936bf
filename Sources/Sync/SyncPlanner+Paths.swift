import PBXProj

/// `--folders-from paths` (the default): Xcode ties a group to its `path`, so a group with a path
/// keeps the folder it resolves to, and a file already inside its group's folder stays.
extension PlanBuilder {
    /// Decides a `<group>` group that has a `path`: it keeps the folder the path resolves to now,
    /// whatever name the group shows and wherever its parent's folder goes (its `path` is
    /// rewritten if the parent gets a folder of its own). `path = .` lives in its parent's folder.
    mutating func assignByPath(_ index: Int, parent: Int, path: String) {
        if path.isEmpty {
            roles[index] = .passThrough
            folders[index] = folders[parent]
        } else {
            roles[index] = .anchored
        }
    }

    /// Whether `source` lies inside `folder`, at any depth: with `--folders-from paths` such a
    /// reference is in place.
    func isInsideFolder(_ source: String, _ folder: String) -> Bool {
        ProjectPath.isWithin(key(source), key(folder))
    }
}
