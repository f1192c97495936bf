import Foundation
import Testing
import TestThreads

/// A static check over the repository's own text files: no line left by an unresolved merge
/// (`<<<<<<< `, a lone `=======`, `>>>>>>> ` at the start of a line). A resolution script once
/// left one in CHANGELOG.md; Markdown renders it silently, so only a check finds it.
@Suite(.dedicatedThreads) struct ConflictMarkerTests {
    static let folders = ["Sources", "Tests", "docs", "lanes", "scripts", ".ci"]
    static let rootFiles = ["README.md", "CHANGELOG.md", "Package.swift"]
    static let textSuffixes = [".swift", ".md", ".yml", ".yaml", ".sh", ".json", ".txt", ".py", ".pbxproj", ""]

    static func markers(in text: String, file: String) -> [String] {
        text.components(separatedBy: "\n").enumerated().compactMap { index, line in
            line.hasPrefix("<<<<<<< ") || line.hasPrefix(">>>>>>> ") || line == "=======" ? "\(file):\(index + 1): \(line)" : nil
        }
    }

    @Test func noConflictMarkersInTheRepository() throws {
        let root = BlockingCallsTests.packageRoot
        var files = Self.rootFiles
        for folder in Self.folders {
            guard let walker = FileManager.default.enumerator(atPath: root + "/" + folder) else { continue }
            for case let path as String in walker where !path.contains("/.build") {
                let name = (path as NSString).lastPathComponent
                let suffix = name.contains(".") ? "." + ((name as NSString).pathExtension) : ""
                if Self.textSuffixes.contains(suffix) { files.append(folder + "/" + path) }
            }
        }
        var found: [String] = []
        for file in files {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + file, isDirectory: &isDirectory), !isDirectory.boolValue,
                let text = try? String(contentsOfFile: root + "/" + file, encoding: .utf8)
            else { continue }
            found += Self.markers(in: text, file: file)
        }
        #expect(found == [], "unresolved merge lines; resolve them (keep both sides' text where both belong)")
    }

    @Test func findsEachKindOfMarker() {
        let text = "a\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n  ======= not at the start\n"
        #expect(Self.markers(in: text, file: "f") == ["f:2: <<<<<<< ours", "f:4: =======", "f:6: >>>>>>> theirs"])
    }
}
