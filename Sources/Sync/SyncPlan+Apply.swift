import PBXProj

extension SyncPlan {
    /// Applies the plan's pbxproj edits to `project` (in memory; nothing is written).
    /// - Throws: `PBXProjError` when an edited object is missing (a plan made for another
    ///   project).
    public func applyEdits(to project: inout PBXProject) throws {
        for edit in edits {
            let id = ObjectID(edit.object)
            switch edit.key {
            case .path: try project.setPath(of: id, to: edit.newValue)
            case .name: try project.setName(of: id, to: edit.newValue)
            case .sourceTree: try project.setSourceTree(of: id, to: edit.newValue ?? "<group>")
            case .children: try project.setChildren(of: id, to: (edit.children ?? []).map { ObjectID($0) })
            case .buildSetting:
                guard let setting = edit.setting else { continue }
                try project.setBuildSetting(setting, to: edit.newValue.map(PBXValue.string), in: id)
            }
        }
    }
}
