// libFuzzer entry point for the PBXProj reader and writers.
//
// Compiled together with Sources/PBXProj/*.swift into one module (no `import PBXProj`) by
// scripts/fuzz-pbxproj.sh. Besides "no crash, no hang, no sanitizer report", each input checks
// the module's promises, so that a broken promise is a crash the fuzzer reports:
// - an ASCII input that reads is written back byte for byte;
// - the canonical form reads back and is its own canonical form;
// - after a series of edits, the written text reads back into exactly the edited objects.

@_cdecl("LLVMFuzzerTestOneInput")
public func pbxprojFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let project = try? PBXProject(bytes: bytes, projectName: "Fuzz") else { return 0 }
    do {
        let written = try project.serialized()
        if project.sourceFormat == .openStep && written != bytes {
            fatalError("fuzz: lossless round trip changed the bytes")
        }
        let canonical = try project.canonicalSerialized()
        let reread = try PBXProject(bytes: canonical, projectName: "Fuzz")
        if try reread.canonicalSerialized() != canonical {
            fatalError("fuzz: canonical form is not a fixed point")
        }
        _ = project.validate()
        _ = try? project.groupTree()
        _ = project.targets.map { project.buildConfigurations(of: $0.id) }
        try checkEdits(project)
    } catch {
        fatalError("fuzz: a project that reads failed later: \(error)")
    }
    return 0
}

/// Applies the edits Sync and Release make, writes, reads back, and compares every object.
private func checkEdits(_ original: PBXProject) throws {
    var project = original
    let files = project.fileReferences
    if let first = files.first {
        try project.setPath(of: first.id, to: "Fuzz Renamed/file.swift")
        try project.setName(of: first.id, to: nil)
    }
    if let main = project.mainGroupID, let children = project.object(main)?.references("children"),
        project.object(main)?["children"]?.array != nil {
        try project.setChildren(of: main, to: children.reversed())
        try project.addFileReference(path: "Added.swift", to: main)
        _ = try? project.addGroup(path: "Added Group", to: main)
    }
    if let configuration = project.objectIDs(isa: PBXIsa.buildConfiguration).first {
        try project.setBuildSetting("MARKETING_VERSION", to: "9.9", in: configuration)
    }
    if files.count > 1, let last = files.last {
        try project.removeFileReference(last.id)
    }
    let reread = try PBXProject(bytes: try project.serialized(), projectName: "Fuzz")
    for id in project.objectIDs where reread.object(id) != project.object(id) {
        fatalError("fuzz: object \(id) reads back differently after edits")
    }
    if reread.objectIDs.count != project.objectIDs.count {
        fatalError("fuzz: the edited file has \(reread.objectIDs.count) objects, the model \(project.objectIDs.count)")
    }
}
