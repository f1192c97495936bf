import Foundation
@testable import Pins
import TestSupport

/// An app's Xcode project with Swift packages, written for these tests in the shape Xcode 15/16
/// writes (`XCRemoteSwiftPackageReference` / `XCLocalSwiftPackageReference` objects listed in the
/// project's `packageReferences`), and the Package.resolved that satisfies it.
enum XcodeDepsFixtures {
    /// One remote package: its object id, URL, `requirement` body and the pin Xcode wrote.
    struct Remote {
        var id: String
        var url: String
        var requirement: [String]
        var identity: String
        var location: String
        var revision: String
        var version: String?
        var branch: String?
    }

    static let swiftLintRevision = "60bc01f2e3b31445dc723f5af1a777b63d18e6c2"

    static let remotes: [Remote] = [
        Remote(id: "AB0000000000000000000011", url: "https://github.com/jpsim/Yams.git",
               requirement: ["kind = upToNextMajorVersion;", "minimumVersion = 5.0.0;"], identity: "yams",
               location: "https://github.com/jpsim/Yams.git", revision: DepsFixtures.yamsRevision, version: "5.0.6"),
        Remote(id: "AB0000000000000000000012", url: "https://github.com/apple/swift-argument-parser",
               requirement: ["kind = upToNextMinorVersion;", "minimumVersion = 1.3.0;"], identity: "swift-argument-parser",
               location: "https://github.com/apple/swift-argument-parser", revision: DepsFixtures.parserRevision, version: "1.3.1"),
        Remote(id: "AB0000000000000000000013", url: "https://github.com/apple/swift-collections.git",
               requirement: ["kind = exactVersion;", "version = 1.1.0;"], identity: "swift-collections",
               location: "https://github.com/apple/swift-collections.git",
               revision: "94cf62b3ba8d4bed62680a282d4c25f9c63c2efb", version: "1.1.0"),
        Remote(id: "AB0000000000000000000014", url: "https://github.com/pointfreeco/swift-snapshot-testing",
               requirement: ["kind = versionRange;", "maximumVersion = 1.18.0;", "minimumVersion = 1.10.0;"],
               identity: "swift-snapshot-testing", location: "https://github.com/pointfreeco/swift-snapshot-testing",
               revision: "6d932a79e7173b275b96c600c86c603cf84f153c", version: "1.17.4"),
        Remote(id: "AB0000000000000000000015", url: "https://github.com/kishikawakatsumi/KeychainAccess",
               requirement: ["branch = master;", "kind = branch;"], identity: "keychainaccess",
               location: "https://github.com/kishikawakatsumi/KeychainAccess",
               revision: "e0c7eebc5a4465a3c4680764f26b7a61f567cdaf", branch: "master"),
        Remote(id: "AB0000000000000000000016", url: "https://github.com/realm/SwiftLint",
               requirement: ["kind = revision;", "revision = \(swiftLintRevision);"], identity: "swiftlint",
               location: "https://github.com/realm/SwiftLint", revision: swiftLintRevision),
    ]

    static let localID = "AB0000000000000000000021"

    /// `project.pbxproj` with `remotes` and a local package at `Packages/AppCore`.
    static func pbxproj(remotes: [Remote] = remotes, localPath: String? = "Packages/AppCore") -> String {
        let references = remotes.map { "\t\t\t\t\($0.id) /* XCRemoteSwiftPackageReference \"\(name(of: $0))\" */," }
            + (localPath.map { ["\t\t\t\t\(localID) /* XCLocalSwiftPackageReference \"\($0)\" */,"] } ?? [])
        let remoteObjects = remotes.map { remote in
            """
            \t\t\(remote.id) /* XCRemoteSwiftPackageReference "\(name(of: remote))" */ = {
            \t\t\tisa = XCRemoteSwiftPackageReference;
            \t\t\trepositoryURL = "\(remote.url)";
            \t\t\trequirement = {
            \(remote.requirement.map { "\t\t\t\t" + $0 }.joined(separator: "\n"))
            \t\t\t};
            \t\t};
            """
        }
        let local = localPath.map { path in
            """
            /* Begin XCLocalSwiftPackageReference section */
            \t\t\(localID) /* XCLocalSwiftPackageReference "\(path)" */ = {
            \t\t\tisa = XCLocalSwiftPackageReference;
            \t\t\trelativePath = \(path);
            \t\t};
            /* End XCLocalSwiftPackageReference section */

            """
        } ?? ""
        return """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1;
            \tclasses = {
            \t};
            \tobjectVersion = 60;
            \tobjects = {

            /* Begin PBXGroup section */
            \t\tAB0000000000000000000001 = {
            \t\t\tisa = PBXGroup;
            \t\t\tchildren = (
            \t\t\t);
            \t\t\tsourceTree = "<group>";
            \t\t};
            /* End PBXGroup section */

            /* Begin PBXProject section */
            \t\tAB0000000000000000000002 /* Project object */ = {
            \t\t\tisa = PBXProject;
            \t\t\tcompatibilityVersion = "Xcode 14.0";
            \t\t\tmainGroup = AB0000000000000000000001;
            \t\t\tpackageReferences = (
            \(references.joined(separator: "\n"))
            \t\t\t);
            \t\t\tprojectDirPath = "";
            \t\t\tprojectRoot = "";
            \t\t\ttargets = (
            \t\t\t);
            \t\t};
            /* End PBXProject section */

            \(local)/* Begin XCRemoteSwiftPackageReference section */
            \(remoteObjects.joined(separator: "\n"))
            /* End XCRemoteSwiftPackageReference section */
            \t};
            \trootObject = AB0000000000000000000002 /* Project object */;
            }

            """
    }

    private static func name(of remote: Remote) -> String {
        String(remote.url.split(separator: "/").last ?? "").replacingOccurrences(of: ".git", with: "")
    }

    /// The 1-based line of the object `id`'s definition in `text`.
    static func line(of id: String, in text: String) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.firstIndex { $0.hasPrefix("\t\t\(id) ") && $0.hasSuffix("= {") } ?? -1) + 1
    }

    /// Package.resolved in format `version` (1, 2 or 3) pinning `remotes`.
    static func resolved(version: Int, remotes: [Remote] = remotes) -> String {
        let pins = remotes.map { remote -> String in
            var state = ["\"revision\" : \"\(remote.revision)\""]
            state.append("\"version\" : " + (remote.version.map { "\"\($0)\"" } ?? "null"))
            if let branch = remote.branch { state.insert("\"branch\" : \"\(branch)\"", at: 0) }
            if version == 1 {
                return """
                      {
                        "package" : "\(name(of: remote))",
                        "repositoryURL" : "\(remote.location)",
                        "state" : { \(state.joined(separator: ", ")) }
                      }
                """
            }
            return """
                  {
                    "identity" : "\(remote.identity)",
                    "kind" : "remoteSourceControl",
                    "location" : "\(remote.location)",
                    "state" : { \(state.joined(separator: ", ")) }
                  }
            """
        }.joined(separator: ",\n")
        if version == 1 {
            return "{\n  \"object\" : {\n    \"pins\" : [\n\(pins)\n    ]\n  },\n  \"version\" : 1\n}\n"
        }
        let origin = version == 3 ? "  \"originHash\" : \"\(String(repeating: "5", count: 64))\",\n" : ""
        return "{\n\(origin)  \"pins\" : [\n\(pins)\n  ],\n  \"version\" : \(version)\n}\n"
    }

    static let projectResolved = "App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved"
    static let workspaceResolved = "App.xcworkspace/xcshareddata/swiftpm/Package.resolved"

    /// A workspace that lists App.xcodeproj inside a group, as Xcode writes it.
    static let workspaceContents = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Workspace
           version = "1.0">
           <Group
              location = "container:"
              name = "Apps">
              <FileRef
                 location = "group:App.xcodeproj">
              </FileRef>
           </Group>
        </Workspace>

        """

    /// The app: App.xcodeproj with its packages, the local package, and the Package.resolved in
    /// the project's bundle (`inWorkspace: false`) or in App.xcworkspace (`inWorkspace: true`).
    static func write(into project: PinsProject, resolvedVersion: Int = 3, inWorkspace: Bool = false,
                      pbxproj text: String = pbxproj()) throws {
        try project.write("App.xcodeproj/project.pbxproj", text)
        try project.write("Packages/AppCore/Package.swift", "// swift-tools-version:5.9\n")
        if inWorkspace {
            try project.write("App.xcworkspace/contents.xcworkspacedata", workspaceContents)
            try project.write(workspaceResolved, resolved(version: resolvedVersion))
        } else {
            try project.write(projectResolved, resolved(version: resolvedVersion))
        }
    }
}
