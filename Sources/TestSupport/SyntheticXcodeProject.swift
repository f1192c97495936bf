import Foundation

/// A generated Xcode project for sync tests and benchmarks: `files` Swift files in `groups`
/// groups that have names but no folders (the layout synx was made for), all files flat in one
/// folder on disk, so that a sync moves every file into a folder of its own group.
public enum SyntheticXcodeProject {
    /// Writes `App.xcodeproj` and `App/FileNNNNNN.swift` (each file's content is its path) into
    /// `folder` and returns the `.xcodeproj` path.
    @discardableResult
    public static func write(files: Int, groups: Int, in folder: String) throws -> String {
        let manager = FileManager.default
        let sources = folder + "/App"
        try manager.createDirectory(atPath: sources, withIntermediateDirectories: true)
        for file in 0..<files {
            let name = fileName(file)
            try Data("App/\(name)\n".utf8).write(to: URL(fileURLWithPath: sources + "/" + name))
        }
        let bundle = folder + "/App.xcodeproj"
        try manager.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        try Data(pbxproj(files: files, groups: groups).utf8).write(to: URL(fileURLWithPath: bundle + "/project.pbxproj"))
        return bundle
    }

    static func fileName(_ index: Int) -> String { "File" + pad(index, 6) + ".swift" }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func id(_ kind: Int, _ index: Int) -> String {
        let hex = String(index, radix: 16, uppercase: true)
        return "A" + String(kind) + String(repeating: "0", count: 22 - hex.count) + hex
    }

    /// The pbxproj text (Xcode's layout; object ids derived from the indexes).
    public static func pbxproj(files: Int, groups: Int) -> String {
        let groups = max(1, min(groups, max(files, 1)))
        var buildFiles = "", references = "", groupText = "", sourcesList = ""
        var members: [[Int]] = Array(repeating: [], count: groups)
        for file in 0..<files { members[file % groups].append(file) }
        for file in 0..<files {
            let name = fileName(file)
            buildFiles += "\t\t\(id(1, file)) /* \(name) in Sources */ = {isa = PBXBuildFile; fileRef = \(id(2, file)) /* \(name) */; };\n"
            references += "\t\t\(id(2, file)) /* \(name) */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = \(name); sourceTree = \"<group>\"; };\n"
            sourcesList += "\t\t\t\t\(id(1, file)) /* \(name) in Sources */,\n"
        }
        var groupIDs = ""
        for group in 0..<groups {
            let name = "Module" + pad(group, 4)
            groupIDs += "\t\t\t\t\(id(3, group)) /* \(name) */,\n"
            let children = members[group].map { "\t\t\t\t\(id(2, $0)) /* \(fileName($0)) */,\n" }.joined()
            groupText += "\t\t\(id(3, group)) /* \(name) */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\(children)\t\t\t);\n\t\t\tname = \(name);\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n"
        }
        let main = id(4, 0), app = id(4, 1), products = id(4, 2), product = id(5, 0), target = id(6, 0)
        let project = id(6, 1), phase = id(6, 2), targetList = id(7, 0), projectList = id(7, 1)
        let debug = id(8, 0), release = id(8, 1), targetDebug = id(8, 2), targetRelease = id(8, 3)
        return """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1;
            \tclasses = {
            \t};
            \tobjectVersion = 56;
            \tobjects = {

            /* Begin PBXBuildFile section */
            \(buildFiles)/* End PBXBuildFile section */

            /* Begin PBXFileReference section */
            \(references)\t\t\(product) /* App.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = App.app; sourceTree = BUILT_PRODUCTS_DIR; };
            /* End PBXFileReference section */

            /* Begin PBXGroup section */
            \(groupText)\t\t\(main) = {
            \t\t\tisa = PBXGroup;
            \t\t\tchildren = (
            \t\t\t\t\(app) /* App */,
            \t\t\t\t\(products) /* Products */,
            \t\t\t);
            \t\t\tsourceTree = "<group>";
            \t\t};
            \t\t\(app) /* App */ = {
            \t\t\tisa = PBXGroup;
            \t\t\tchildren = (
            \(groupIDs)\t\t\t);
            \t\t\tpath = App;
            \t\t\tsourceTree = "<group>";
            \t\t};
            \t\t\(products) /* Products */ = {
            \t\t\tisa = PBXGroup;
            \t\t\tchildren = (
            \t\t\t\t\(product) /* App.app */,
            \t\t\t);
            \t\t\tname = Products;
            \t\t\tsourceTree = "<group>";
            \t\t};
            /* End PBXGroup section */

            /* Begin PBXNativeTarget section */
            \t\t\(target) /* App */ = {
            \t\t\tisa = PBXNativeTarget;
            \t\t\tbuildConfigurationList = \(targetList) /* Build configuration list for PBXNativeTarget "App" */;
            \t\t\tbuildPhases = (
            \t\t\t\t\(phase) /* Sources */,
            \t\t\t);
            \t\t\tbuildRules = (
            \t\t\t);
            \t\t\tdependencies = (
            \t\t\t);
            \t\t\tname = App;
            \t\t\tproductName = App;
            \t\t\tproductReference = \(product) /* App.app */;
            \t\t\tproductType = "com.apple.product-type.application";
            \t\t};
            /* End PBXNativeTarget section */

            /* Begin PBXProject section */
            \t\t\(project) /* Project object */ = {
            \t\t\tisa = PBXProject;
            \t\t\tbuildConfigurationList = \(projectList) /* Build configuration list for PBXProject "App" */;
            \t\t\tcompatibilityVersion = "Xcode 14.0";
            \t\t\tmainGroup = \(main);
            \t\t\tproductRefGroup = \(products) /* Products */;
            \t\t\tprojectDirPath = "";
            \t\t\tprojectRoot = "";
            \t\t\ttargets = (
            \t\t\t\t\(target) /* App */,
            \t\t\t);
            \t\t};
            /* End PBXProject section */

            /* Begin PBXSourcesBuildPhase section */
            \t\t\(phase) /* Sources */ = {
            \t\t\tisa = PBXSourcesBuildPhase;
            \t\t\tbuildActionMask = 2147483647;
            \t\t\tfiles = (
            \(sourcesList)\t\t\t);
            \t\t\trunOnlyForDeploymentPostprocessing = 0;
            \t\t};
            /* End PBXSourcesBuildPhase section */

            /* Begin XCBuildConfiguration section */
            \(configuration(debug, "Debug", infoPlist: false))\(configuration(release, "Release", infoPlist: false))\(configuration(targetDebug, "Debug", infoPlist: true))\(configuration(targetRelease, "Release", infoPlist: true))/* End XCBuildConfiguration section */

            /* Begin XCConfigurationList section */
            \t\t\(targetList) /* Build configuration list for PBXNativeTarget "App" */ = {
            \t\t\tisa = XCConfigurationList;
            \t\t\tbuildConfigurations = (
            \t\t\t\t\(targetDebug) /* Debug */,
            \t\t\t\t\(targetRelease) /* Release */,
            \t\t\t);
            \t\t\tdefaultConfigurationIsVisible = 0;
            \t\t\tdefaultConfigurationName = Release;
            \t\t};
            \t\t\(projectList) /* Build configuration list for PBXProject "App" */ = {
            \t\t\tisa = XCConfigurationList;
            \t\t\tbuildConfigurations = (
            \t\t\t\t\(debug) /* Debug */,
            \t\t\t\t\(release) /* Release */,
            \t\t\t);
            \t\t\tdefaultConfigurationIsVisible = 0;
            \t\t\tdefaultConfigurationName = Release;
            \t\t};
            /* End XCConfigurationList section */
            \t};
            \trootObject = \(project) /* Project object */;
            }

            """
    }

    private static func configuration(_ id: String, _ name: String, infoPlist: Bool) -> String {
        let plist = infoPlist ? "\t\t\t\tINFOPLIST_FILE = App/\(fileName(0));\n" : ""
        return "\t\t\(id) /* \(name) */ = {\n\t\t\tisa = XCBuildConfiguration;\n\t\t\tbuildSettings = {\n\(plist)\t\t\t\tSWIFT_VERSION = 5.0;\n\t\t\t};\n\t\t\tname = \(name);\n\t\t};\n"
    }
}
