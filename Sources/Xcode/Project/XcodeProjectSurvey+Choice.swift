import Basics
import PBXProj

/// Which workspace and project `slipway init` uses: the one that holds the application target,
/// not the alphabetically first (a workspace can list a tools project, a folder can hold a
/// sample app's project). When several hold one, the choice and the way to make another are said.
struct ContainerChoice {
    /// The workspace or project, the project whose targets are read, and what was said about it.
    struct Chosen {
        var container: String
        var project: String?
        var notes: [String] = []
    }

    let directory: String
    let fileSystem: FileSystem

    init(directory: String, fileSystem: FileSystem) {
        self.directory = directory
        self.fileSystem = fileSystem
    }

    /// Paths relative to `directory`, as found; nil when there are none.
    func choose(workspaces: [String], projects: [String]) -> Chosen? {
        let members = workspaces.map { (workspace: $0, projects: self.members(of: $0)) }
        let withApps = members.filter { !$0.projects.filter { !applicationTargets(of: $0).isEmpty }.isEmpty }
        if let first = withApps.first {
            var chosen = choose(projects: first.projects, in: first.workspace)
            chosen.container = first.workspace
            if withApps.count > 1 {
                chosen.notes.append("several workspaces hold an application target (\(withApps.map(\.workspace).joined(separator: ", "))); "
                    + "chose \(first.workspace), the first; to use another, set the lane's workspace, scheme and version.bump's xcodeproj to it")
            }
            return chosen
        }
        let appProjects = projects.filter { !CocoaPodsAdvice.isCocoaPodsPath($0) && !applicationTargets(of: $0).isEmpty }
        if !appProjects.isEmpty {
            let chosen = choose(projects: appProjects, in: nil)
            if let passedOver = workspaces.first {
                return Chosen(container: chosen.project ?? appProjects[0], project: chosen.project,
                              notes: chosen.notes + ["\(passedOver) lists no project with an application target; used \(chosen.project ?? appProjects[0]) instead"])
            }
            return Chosen(container: chosen.project ?? appProjects[0], project: chosen.project, notes: chosen.notes)
        }
        // No application target anywhere: the first of each, as found.
        if let workspace = members.first {
            let project = workspace.projects.first ?? projects.first(where: { !CocoaPodsAdvice.isCocoaPodsPath($0) }) ?? projects.first
            return Chosen(container: workspace.workspace, project: project)
        }
        guard let project = projects.first else { return nil }
        return Chosen(container: project, project: project)
    }

    /// Among `candidates`, the project with an application target: the only one, else the one
    /// named like the workspace, else the first (and a note saying so and how to choose another).
    private func choose(projects candidates: [String], in workspace: String?) -> Chosen {
        let apps = candidates.filter { !applicationTargets(of: $0).isEmpty }
        guard let first = apps.first else { return Chosen(container: workspace ?? candidates.first ?? "", project: candidates.first) }
        guard apps.count > 1 else { return Chosen(container: workspace ?? first, project: first) }
        let workspaceName = workspace.map { ProjectPath.lastComponent($0).replacingOccurrences(of: ".xcworkspace", with: "") }
        let named = apps.first { ProjectPath.lastComponent($0) == (workspaceName ?? "") + ".xcodeproj" }
        let project = named ?? first
        let listing = apps.map { "\($0) (\(applicationTargets(of: $0).joined(separator: ", ")))" }.joined(separator: ", ")
        let why = named != nil ? "named like the workspace" : "the first listed"
        let note = "\(workspace.map { "\($0) lists" } ?? "this folder holds") several projects with an application target: \(listing); "
            + "chose \(project) (\(why)); to use another, set the lane's \(workspace == nil ? "project" : "scheme") and version.bump's xcodeproj to it"
        return Chosen(container: workspace ?? project, project: project, notes: [note])
    }

    /// The projects `workspace` lists, relative to the folder, CocoaPods' left out; those that do
    /// not exist or lie outside the folder are left out too.
    private func members(of workspace: String) -> [String] {
        let absolute = directory + "/" + workspace
        let data = absolute + "/contents.xcworkspacedata"
        guard let bytes = try? fileSystem.read(data, as: .buildSettings),
              let listed = try? XcodeWorkspaceData.projects(xml: bytes, path: data, workspace: absolute) else { return [] }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return listed.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
            .filter { !CocoaPodsAdvice.isCocoaPodsPath($0) && fileSystem.kind(of: directory + "/" + $0) == .directory }
    }

    /// The names of `project`'s application targets; none when it does not read.
    private func applicationTargets(of project: String) -> [String] {
        let file = ProjectFile(path: directory + "/" + project)
        return (try? PBXProject(bytes: fileSystem.read(file.pbxprojPath, as: .projectFile), projectName: file.projectName))?
            .targets.filter { $0.productType == "com.apple.product-type.application" }.map(\.name) ?? []
    }
}
