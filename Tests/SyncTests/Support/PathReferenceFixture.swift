import Foundation
import PBXProj
import TestSupport

/// A small app for the path-reference tests: files at the project folder's root listed by a
/// group without a path ("Support"), so that `--groups-without-path folder` moves them into
/// `Support/`; files listed by the main group stay. Optionally a base configuration `.xcconfig`,
/// a script phase and build settings.
struct PathReferenceFixture {
    /// Files in the path-less group "Support" (paths relative to the project folder).
    var moving: [String] = ["Info.plist", "Prefix.pch"]
    /// Files listed by the main group (they stay).
    var staying: [String] = []
    /// The main group's file used as the Debug configuration's base `.xcconfig`.
    var baseConfiguration: String?
    /// The Debug configuration's build settings.
    var settings: [String: String] = [:]
    /// The script phase's text (none when nil).
    var script: String?
    var inputPaths: [String] = []

    private static func id(_ number: Int) -> String { String(format: "AA%022X", number) }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// The pbxproj text.
    func text() -> String {
        var objects: [String] = []
        var counter = 10
        func next() -> String { counter += 1; return Self.id(counter) }
        var stayingIDs: [String: String] = [:]
        for file in staying {
            let id = next()
            stayingIDs[file] = id
            objects.append("\t\t\(id) = {isa = PBXFileReference; lastKnownFileType = text; path = \(Self.quoted(file)); sourceTree = \"<group>\"; };")
        }
        var movingIDs: [String] = []
        for file in moving {
            let id = next()
            movingIDs.append(id)
            objects.append("\t\t\(id) = {isa = PBXFileReference; lastKnownFileType = text; path = \(Self.quoted(file)); sourceTree = \"<group>\"; };")
        }
        let support = next(), products = next(), main = Self.id(1)
        objects.append("\t\t\(support) = {isa = PBXGroup; children = (\(movingIDs.map { $0 + "," }.joined(separator: " "))); name = Support; sourceTree = \"<group>\"; };")
        objects.append("\t\t\(products) = {isa = PBXGroup; children = (); name = Products; sourceTree = \"<group>\"; };")
        let mainChildren = staying.compactMap { stayingIDs[$0] } + [support, products]
        objects.append("\t\t\(main) = {isa = PBXGroup; children = (\(mainChildren.map { $0 + "," }.joined(separator: " "))); sourceTree = \"<group>\"; };")
        let configuration = next(), list = next(), target = next(), project = Self.id(2), phase = next()
        let base = baseConfiguration.flatMap { stayingIDs[$0] }.map { " baseConfigurationReference = \($0);" } ?? ""
        let settingsText = settings.sorted { $0.key < $1.key }.map { "\($0.key) = \(Self.quoted($0.value));" }.joined(separator: " ")
        objects.append("\t\t\(configuration) /* Debug */ = {isa = XCBuildConfiguration;\(base) buildSettings = {\(settingsText)}; name = Debug; };")
        objects.append("\t\t\(list) = {isa = XCConfigurationList; buildConfigurations = (\(configuration),); };")
        // The moving files are the target's resources: a file no target builds at the top of the
        // project folder never moves (tools and scripts find it there).
        let resources = next()
        var buildFiles: [String] = []
        for file in movingIDs {
            let buildFile = next()
            buildFiles.append(buildFile)
            objects.append("\t\t\(buildFile) = {isa = PBXBuildFile; fileRef = \(file); };")
        }
        objects.append("\t\t\(resources) /* Resources */ = {isa = PBXResourcesBuildPhase; buildActionMask = 2147483647; files = (\(buildFiles.map { $0 + "," }.joined(separator: " "))); runOnlyForDeploymentPostprocessing = 0; };")
        var phases = "\(resources),"
        if let script {
            phases += " \(phase),"
            let inputs = inputPaths.map { Self.quoted($0) + "," }.joined(separator: " ")
            objects.append("\t\t\(phase) /* Run Script */ = {isa = PBXShellScriptBuildPhase; buildActionMask = 2147483647; files = (); inputPaths = (\(inputs)); name = \"Run Script\"; outputPaths = (); runOnlyForDeploymentPostprocessing = 0; shellPath = /bin/sh; shellScript = \(Self.quoted(script)); };")
        }
        objects.append("\t\t\(target) /* App */ = {isa = PBXNativeTarget; buildConfigurationList = \(list); buildPhases = (\(phases)); name = App; };")
        objects.append("\t\t\(project) /* Project object */ = {isa = PBXProject; mainGroup = \(main); productRefGroup = \(products); projectDirPath = \"\"; targets = (\(target),); };")
        return "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 77;\n\tobjects = {\n"
            + objects.joined(separator: "\n") + "\n\t};\n\trootObject = \(project);\n}\n"
    }

    /// The parsed project.
    func project() throws -> PBXProject { try PBXProject(bytes: Array(text().utf8), projectName: "App") }

    /// The 1-based line of the first object whose line contains `marker`.
    func line(of marker: String) -> Int {
        (text().split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(marker) } ?? -1) + 1
    }

    /// Writes the project (`App.xcodeproj`) and every listed file (its path as content unless
    /// `contents` says otherwise) into `folder`.
    func write(in folder: String, contents: [String: String] = [:]) throws {
        for file in moving + staying {
            try write(folder + "/" + file, contents[file] ?? file + "\n")
        }
        for (file, text) in contents where !(moving + staying).contains(file) { try write(folder + "/" + file, text) }
        try write(folder + "/App.xcodeproj/project.pbxproj", text())
    }

    private func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
