import PBXProj

/// Git conflict markers left in the file.
public struct MergeConflictRule: LintRule {
    public init() {}
    public var id: String { "merge-conflict-markers" }
    public var summary: String { "The file still holds git merge-conflict markers (Xcode cannot open it)." }
    public var defaultSeverity: LintSeverity { .error }
    public var examples: [LintExample] {
        [LintExample("an unresolved conflict",
                     text: "// !$*UTF8*$!\n{\n<<<<<<< HEAD\n\tobjectVersion = 56;\n=======\n\tobjectVersion = 77;\n>>>>>>> feature\n}\n",
                     expected: ["3: merge-conflict marker '<<<<<<<' left in the file; resolve the conflict",
                                "5: merge-conflict marker '=======' left in the file; resolve the conflict",
                                "7: merge-conflict marker '>>>>>>>' left in the file; resolve the conflict"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard case .mergeConflict = context.readError else { return [] }
        var findings: [LintFinding] = []
        let bytes = context.bytes
        var line = 1
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            if let marker = Self.marker(bytes[start..<end]) {
                findings.append(LintFinding(
                    ruleID: id, severity: defaultSeverity,
                    message: "merge-conflict marker '\(marker)' left in the file; resolve the conflict",
                    path: context.pbxprojPath, line: line, column: 1))
            }
            line += 1
            start = end + 1
        }
        return findings
    }

    static func marker(_ line: ArraySlice<UInt8>) -> String? {
        for marker in ["<<<<<<<", "|||||||", "=======", ">>>>>>>"] {
            let bytes = Array(marker.utf8)
            guard line.starts(with: bytes) else { continue }
            let rest = line.dropFirst(bytes.count)
            if rest.isEmpty || rest.first == 0x20 || rest.first == 0x0D { return marker }
        }
        return nil
    }
}
