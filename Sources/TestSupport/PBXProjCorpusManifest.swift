import Foundation

/// One row of the pbxproj corpus's `MANIFEST.tsv`.
public struct PBXProjCorpusEntry: Sendable {
    /// The file's base name (`owner__repo__name`, without `.pbxproj`).
    public let baseName: String
    /// The absolute path of the corpus file.
    public let filePath: String
    /// The file's path in its repository (`Example/iOS Example.xcodeproj/project.pbxproj`).
    public let repositoryPath: String
    /// The `.xcodeproj` folder's name without the extension (`iOS Example`).
    public let projectName: String
    /// The `objectVersion` column.
    public let objectVersion: Int
    /// The free-text feature notes.
    public let features: String
    /// The `ref_check` column's `key=value` counts (`checked`, `exists`, `missing`,
    /// `in-submodule`, `outside-tree-root`, ...).
    public let referenceCheck: [String: Int]
    /// The `trees/<base>.txt` file listing every tracked file under the project's folder.
    public let treeListPath: String
    /// The `trees/<base>.outside.tsv` file, when the project references files outside its folder.
    public let outsideListPath: String?

    /// The file's bytes.
    public func bytes() throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: filePath)))
    }

    /// Copies the file into `directory` as `<projectName>.xcodeproj/project.pbxproj` and returns
    /// the `.xcodeproj` folder's path.
    @discardableResult
    public func install(in directory: TemporaryDirectory) throws -> String {
        let folder = directory.path + "/" + projectName + ".xcodeproj"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(contentsOf: URL(fileURLWithPath: filePath)).write(to: URL(fileURLWithPath: folder + "/project.pbxproj"))
        return folder
    }

    /// Every path in the tree list (files only; folders are implied by them).
    public func treePaths() throws -> Set<String> {
        let text = try String(contentsOfFile: treeListPath, encoding: .utf8)
        return Set(text.split(separator: "\n").map(String.init))
    }

    /// The outside-the-folder paths and whether they exist (`exists`, `exists-dir`, `missing`).
    public func outsidePaths() throws -> [String: String] {
        guard let outsideListPath else { return [:] }
        var result: [String: String] = [:]
        for line in try String(contentsOfFile: outsideListPath, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            if columns.count >= 2 { result[String(columns[0])] = String(columns[1]) }
        }
        return result
    }
}

/// Reads the pbxproj corpus's manifest.
public enum PBXProjCorpusManifest {
    /// Every row of `MANIFEST.tsv` in `directory` (the corpus folder), in file order.
    public static func entries(in directory: String) throws -> [PBXProjCorpusEntry] {
        let text = try String(contentsOfFile: directory + "/MANIFEST.tsv", encoding: .utf8)
        var rows = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard let header = rows.first else { return [] }
        rows.removeFirst()
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        guard let file = column("file"), let path = column("path"), let version = column("objectVersion"),
            let features = column("features"), let check = column("ref_check")
        else { return [] }
        return rows.compactMap { row in
            guard row.count > max(file, path, version, features, check) else { return nil }
            let fileName = (row[file] as NSString).lastPathComponent
            let base = (fileName as NSString).deletingPathExtension
            let components = row[path].split(separator: "/").map(String.init)
            let folder = components.count >= 2 ? components[components.count - 2] : "Project.xcodeproj"
            let outside = directory + "/trees/" + base + ".outside.tsv"
            return PBXProjCorpusEntry(
                baseName: base, filePath: directory + "/" + row[file], repositoryPath: row[path],
                projectName: (folder as NSString).deletingPathExtension, objectVersion: Int(row[version]) ?? 0,
                features: row[features], referenceCheck: parseCounts(row[check]),
                treeListPath: directory + "/trees/" + base + ".txt",
                outsideListPath: FileManager.default.fileExists(atPath: outside) ? outside : nil)
        }
    }

    private static func parseCounts(_ text: String) -> [String: Int] {
        var result: [String: Int] = [:]
        for token in text.split(separator: " ") where !token.hasPrefix("[") {
            let parts = token.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { result[String(parts[0])] = value }
        }
        return result
    }

    /// The XML and empty files under `odd/files`.
    public static func oddFiles(in directory: String) -> [String] {
        let folder = directory + "/odd/files"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".pbxproj") }.sorted().map { folder + "/" + $0 }
    }
}
