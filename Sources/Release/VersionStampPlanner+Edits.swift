import Basics
import PBXProj

extension VersionStampPlanner {
    /// The plan: every change and each file's new text.
    /// - Throws: `ReleaseError.versionLocations` with every problem found, before any text is built.
    func finish() throws -> VersionStampPlan {
        if !problems.isEmpty { throw ReleaseError.versionLocations(problems) }
        var plan = VersionStampPlan()
        plan.notes = notes
        plan.changes = changes
        plan.edits = texts
        guard let locator else { return plan }
        plan.notes = notes + locator.notes
        var project = locator.project
        var projectChanged = false
        var xcconfigs: [(path: String, sites: [(start: Int, end: Int, new: String)])] = []
        for (site, new) in sites where site.value != new {
            switch site.place {
            case .pbxproj(let configuration, let key):
                try project.setBuildSetting(key, to: .string(new), in: configuration)
                projectChanged = true
            case .xcconfig(let path, let start, let end):
                if let index = xcconfigs.firstIndex(where: { $0.path == path }) {
                    xcconfigs[index].sites.append((start, end, new))
                } else {
                    xcconfigs.append((path, [(start, end, new)]))
                }
            }
        }
        if projectChanged {
            plan.edits.append((locator.file.pbxprojPath, String(decoding: try project.serialized(), as: UTF8.self)))
        }
        for (path, edits) in xcconfigs {
            guard var bytes = locator.parsed[path]?.bytes else { continue }
            for edit in edits.sorted(by: { $0.start > $1.start }) {
                bytes.replaceSubrange(edit.start..<edit.end, with: Array(edit.new.utf8))
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw ReleaseError.versionLocations(["'\(paths.display(path))' is not valid UTF-8; save it as UTF-8 so that the version can be written keeping every other byte"])
            }
            plan.edits.append((path, text))
        }
        return plan
    }
}
