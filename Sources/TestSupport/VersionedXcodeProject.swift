import Foundation

/// A generated Xcode project for version-stamping tests: targets whose Debug and Release
/// configurations carry build settings, a base `.xcconfig` and an Info.plist, the way real apps
/// (an app and its extensions sharing one `Version.xcconfig`) keep their versions.
public enum VersionedXcodeProject {
    /// One target.
    public struct Target: Sendable {
        /// The target's name.
        public var name: String
        /// Build settings of both its configurations (values quoted where Xcode would).
        public var settings: [(key: String, value: String)]
        /// Its base configuration file, relative to the folder holding the `.xcodeproj`.
        public var xcconfig: String?
        /// Its product type, e.g. `com.apple.product-type.app-extension`.
        public var productType: String

        /// Creates a target (an application unless `productType` says otherwise).
        public init(_ name: String, settings: [(key: String, value: String)] = [], xcconfig: String? = nil,
                    productType: String = "com.apple.product-type.application") {
            self.name = name
            self.settings = settings
            self.xcconfig = xcconfig
            self.productType = productType
        }
    }

    private static func id(_ kind: Int, _ index: Int) -> String {
        let hex = String(index, radix: 16, uppercase: true)
        return "B" + String(kind) + String(repeating: "0", count: 22 - hex.count) + hex
    }

    private static func quoted(_ value: String) -> String {
        value.allSatisfy { $0.isLetter || $0.isNumber || "._/".contains($0) } && !value.isEmpty ? value : "\"\(value)\""
    }

    /// Writes `App.xcodeproj/project.pbxproj` into `folder` and returns the `.xcodeproj` path.
    @discardableResult
    public static func write(
        targets: [Target], projectSettings: [(key: String, value: String)] = [], projectXcconfig: String? = nil, in folder: String
    ) throws -> String {
        let bundle = folder + "/App.xcodeproj"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        let text = pbxproj(targets: targets, projectSettings: projectSettings, projectXcconfig: projectXcconfig)
        try Data(text.utf8).write(to: URL(fileURLWithPath: bundle + "/project.pbxproj"))
        return bundle
    }

    /// The pbxproj text (Xcode's layout; ids derived from indexes).
    public static func pbxproj(targets: [Target], projectSettings: [(key: String, value: String)] = [], projectXcconfig: String? = nil) -> String {
        var xcconfigs: [String] = []
        for path in targets.compactMap(\.xcconfig) + [projectXcconfig].compactMap({ $0 }) where !xcconfigs.contains(path) { xcconfigs.append(path) }
        func reference(_ path: String) -> String { id(2, xcconfigs.firstIndex(of: path) ?? 0) }
        var references = "", children = "", nativeTargets = "", targetIDs = "", configurations = "", lists = ""
        for (index, path) in xcconfigs.enumerated() {
            let name = (path as NSString).lastPathComponent
            references += "\t\t\(id(2, index)) /* \(name) */ = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = \(quoted(path)); sourceTree = \"<group>\"; };\n"
            children += "\t\t\t\t\(id(2, index)) /* \(name) */,\n"
        }
        func configuration(_ configurationID: String, _ name: String, _ settings: [(key: String, value: String)], _ base: String?) -> String {
            let baseLine = base.map { "\t\t\tbaseConfigurationReference = \(reference($0)) /* \(($0 as NSString).lastPathComponent) */;\n" } ?? ""
            let lines = settings.map { "\t\t\t\t\(quoted($0.key)) = \(quoted($0.value));\n" }.joined()
            return "\t\t\(configurationID) /* \(name) */ = {\n\t\t\tisa = XCBuildConfiguration;\n\(baseLine)\t\t\tbuildSettings = {\n\(lines)\t\t\t};\n\t\t\tname = \(name);\n\t\t};\n"
        }
        func list(_ listID: String, _ debug: String, _ release: String, _ owner: String) -> String {
            "\t\t\(listID) /* Build configuration list for \(owner) */ = {\n\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n\t\t\t\t\(debug) /* Debug */,\n\t\t\t\t\(release) /* Release */,\n\t\t\t);\n\t\t\tdefaultConfigurationIsVisible = 0;\n\t\t\tdefaultConfigurationName = Release;\n\t\t};\n"
        }
        for (index, target) in targets.enumerated() {
            let targetID = id(3, index), listID = id(4, index), debug = id(5, index * 2), release = id(5, index * 2 + 1)
            nativeTargets += "\t\t\(targetID) /* \(target.name) */ = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = \(listID) /* Build configuration list for PBXNativeTarget \"\(target.name)\" */;\n\t\t\tbuildPhases = (\n\t\t\t);\n\t\t\tbuildRules = (\n\t\t\t);\n\t\t\tdependencies = (\n\t\t\t);\n\t\t\tname = \(quoted(target.name));\n\t\t\tproductName = \(quoted(target.name));\n\t\t\tproductType = \"\(target.productType)\";\n\t\t};\n"
            targetIDs += "\t\t\t\t\(targetID) /* \(target.name) */,\n"
            configurations += configuration(debug, "Debug", target.settings, target.xcconfig) + configuration(release, "Release", target.settings, target.xcconfig)
            lists += list(listID, debug, release, "PBXNativeTarget \"\(target.name)\"")
        }
        let main = id(1, 0), project = id(6, 0), projectList = id(7, 0), projectDebug = id(8, 0), projectRelease = id(8, 1)
        configurations += configuration(projectDebug, "Debug", projectSettings, projectXcconfig) + configuration(projectRelease, "Release", projectSettings, projectXcconfig)
        lists += list(projectList, projectDebug, projectRelease, "PBXProject \"App\"")
        return """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1;
            \tclasses = {
            \t};
            \tobjectVersion = 56;
            \tobjects = {

            /* Begin PBXFileReference section */
            \(references)/* End PBXFileReference section */

            /* Begin PBXGroup section */
            \t\t\(main) = {
            \t\t\tisa = PBXGroup;
            \t\t\tchildren = (
            \(children)\t\t\t);
            \t\t\tsourceTree = "<group>";
            \t\t};
            /* End PBXGroup section */

            /* Begin PBXNativeTarget section */
            \(nativeTargets)/* End PBXNativeTarget section */

            /* Begin PBXProject section */
            \t\t\(project) /* Project object */ = {
            \t\t\tisa = PBXProject;
            \t\t\tbuildConfigurationList = \(projectList) /* Build configuration list for PBXProject "App" */;
            \t\t\tcompatibilityVersion = "Xcode 14.0";
            \t\t\tmainGroup = \(main);
            \t\t\tprojectDirPath = "";
            \t\t\tprojectRoot = "";
            \t\t\ttargets = (
            \(targetIDs)\t\t\t);
            \t\t};
            /* End PBXProject section */

            /* Begin XCBuildConfiguration section */
            \(configurations)/* End XCBuildConfiguration section */

            /* Begin XCConfigurationList section */
            \(lists)/* End XCConfigurationList section */
            \t};
            \trootObject = \(project) /* Project object */;
            }

            """
    }
}
