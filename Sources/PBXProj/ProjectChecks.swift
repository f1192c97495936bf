/// The first line where two texts differ.
public struct LineDifference: Hashable, Sendable {
    /// The 1-based line number.
    public let line: Int
    /// The line in the file as it is (nil past its end).
    public let original: String?
    /// The line as Slipway writes it (nil past its end).
    public let written: String?

    /// The first differing line of `original` and `written`, or nil when they are equal.
    public static func first(_ original: [UInt8], _ written: [UInt8]) -> LineDifference? {
        let equal = original.withUnsafeBufferPointer { a in written.withUnsafeBufferPointer { b in ByteCompare.equal(a, b) } }
        guard !equal else { return nil }
        var index = 0
        var line = 1
        var lineStart = 0
        let common = min(original.count, written.count)
        while index < common, original[index] == written[index] {
            if original[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        func text(_ bytes: [UInt8]) -> String? {
            guard lineStart < bytes.count || (lineStart == bytes.count && bytes.count != common) else { return nil }
            var end = lineStart
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            return String(decoding: bytes[lineStart..<end], as: UTF8.self)
        }
        return LineDifference(line: line, original: text(original), written: text(written))
    }

    /// How many lines differ between the texts, counted after removing the common beginning and
    /// end (an upper bound of a full diff's size).
    public static func changedLineCount(_ original: [UInt8], _ written: [UInt8]) -> Int {
        let left = original.split(separator: 0x0A, omittingEmptySubsequences: false)
        let right = written.split(separator: 0x0A, omittingEmptySubsequences: false)
        var prefix = 0
        while prefix < left.count, prefix < right.count, left[prefix] == right[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < left.count - prefix, suffix < right.count - prefix,
            left[left.count - 1 - suffix] == right[right.count - 1 - suffix] {
            suffix += 1
        }
        return max(left.count - prefix - suffix, right.count - prefix - suffix)
    }
}

/// The result of `PBXProject.verify(at:)`.
public struct VerifyReport: Sendable {
    /// The project's files.
    public let file: ProjectFile
    /// The form the file is in.
    public let sourceFormat: PBXProject.SourceFormat
    /// Where writing the project back would change it (nil: byte for byte identical).
    public let firstDifference: LineDifference?
    /// What validation found (dangling references are warnings; cycles and a missing root
    /// object are errors).
    public let diagnostics: [PBXProjDiagnostic]

    /// Whether Slipway writes the file back unchanged.
    public var isIdentical: Bool { firstDifference == nil }
}

/// The result of `PBXProject.format(at:write:)`.
public struct FormatReport: Sendable {
    /// The project's files.
    public let file: ProjectFile
    /// Where the file differs from Xcode's canonical form (nil: it is canonical).
    public let firstDifference: LineDifference?
    /// About how many lines differ.
    public let changedLineCount: Int
    /// Whether the canonical form was written to the file.
    public let wrote: Bool
}

extension PBXProject {
    /// Reads the project at `path` and checks that writing it back changes no byte; also
    /// validates references and the group tree. Reads only; never writes.
    /// - Throws: `PBXProjError` when the file cannot be read or is not a valid project.
    public static func verify(at path: String) throws -> VerifyReport {
        let file = ProjectFile(path: path)
        let bytes = try FileIO.read(file.pbxprojPath)
        let project = try PBXProject(bytes: bytes, projectName: file.projectName)
        let written = try project.serialized()
        return VerifyReport(
            file: file, sourceFormat: project.sourceFormat, firstDifference: LineDifference.first(bytes, written),
            diagnostics: project.validate())
    }

    /// Compares the project at `path` with Xcode's canonical form and, when `write` is true and
    /// they differ, replaces the file with it (atomically).
    /// - Throws: `PBXProjError` when the file cannot be read, is not a valid project, or cannot
    ///   be written.
    public static func format(at path: String, write: Bool) throws -> FormatReport {
        let file = ProjectFile(path: path)
        let bytes = try FileIO.read(file.pbxprojPath)
        let project = try PBXProject(bytes: bytes, projectName: file.projectName)
        let canonical = try project.canonicalSerialized()
        let difference = LineDifference.first(bytes, canonical)
        let changed = difference == nil ? 0 : LineDifference.changedLineCount(bytes, canonical)
        if write && difference != nil { try FileIO.writeAtomically(canonical, to: file.pbxprojPath) }
        return FormatReport(file: file, firstDifference: difference, changedLineCount: changed, wrote: write && difference != nil)
    }
}
