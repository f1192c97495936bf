#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A position in a project file: 1-based line and column (columns count Unicode scalars, so a
/// tab or an emoji is one column).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number.
    public let line: Int
    /// The 1-based column number.
    public let column: Int

    /// Creates a location from a 1-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`, the form editors and compilers print.
    public var description: String { "\(line):\(column)" }
}

/// Everything that can go wrong while reading, validating or editing a `project.pbxproj`.
///
/// Syntax errors carry the location of the offending byte; messages quote the subject and say
/// what to do about it.
public enum PBXProjError: Error, Hashable, Sendable {
    /// The file has no bytes at all.
    case emptyFile
    /// The text ended before the property list was complete (`expected` says what was open).
    case unexpectedEnd(expected: String, at: SourceLocation)
    /// A byte that cannot start or continue the construct being read.
    case unexpectedCharacter(found: String, expected: String, at: SourceLocation)
    /// A quoted string whose closing quote is missing.
    case unterminatedString(at: SourceLocation)
    /// A `/*` comment without its `*/`.
    case unterminatedComment(at: SourceLocation)
    /// A backslash escape that the format does not define.
    case invalidEscape(sequence: String, at: SourceLocation)
    /// Bytes that are not valid UTF-8.
    case invalidUTF8(at: SourceLocation)
    /// Git merge-conflict markers (`<<<<<<<`, `=======`, `>>>>>>>`) left in the file.
    case mergeConflict(marker: String, at: SourceLocation)
    /// Containers nested deeper than the reader accepts.
    case nestingTooDeep(limit: Int, at: SourceLocation)
    /// Two objects with the same identifier.
    case duplicateObjectID(id: String, at: SourceLocation, first: SourceLocation)
    /// A structural problem: no `objects` dictionary, an object without `isa`, and the like.
    case invalidStructure(message: String, at: SourceLocation?)
    /// An object referenced by an edit or a query does not exist.
    case missingObject(id: String, at: SourceLocation?)
    /// An object exists but is not of the kind an operation needs.
    case wrongObjectKind(id: String, isa: String, expected: String)
    /// The group tree loops back on itself.
    case groupCycle(id: String, at: SourceLocation?)
    /// An XML property list that cannot be read.
    case invalidXML(message: String, at: SourceLocation)
    /// A value given to an edit cannot be written (for example an empty object identifier).
    case invalidArgument(message: String)
    /// The file is larger than the 4 GiB the reader's offsets can address.
    case fileTooLarge(bytes: Int)
    /// The file or folder cannot be read.
    case unreadable(path: String, reason: String)
    /// The file cannot be written.
    case unwritable(path: String, reason: String)
}

extension PBXProjError {
    /// Where in the file the problem is, when it has a place.
    public var location: SourceLocation? {
        switch self {
        case .emptyFile, .wrongObjectKind, .invalidArgument, .fileTooLarge, .unreadable, .unwritable:
            return nil
        case .unexpectedEnd(_, let at), .unexpectedCharacter(_, _, let at),
            .unterminatedString(let at), .unterminatedComment(let at), .invalidEscape(_, let at),
            .invalidUTF8(let at), .mergeConflict(_, let at), .nestingTooDeep(_, let at),
            .duplicateObjectID(_, let at, _), .invalidXML(_, let at):
            return at
        case .invalidStructure(_, let at), .missingObject(_, let at), .groupCycle(_, let at):
            return at
        }
    }

    /// The message without the location prefix.
    public var message: String {
        switch self {
        case .emptyFile:
            return "the file is empty (0 bytes); restore 'project.pbxproj' from version control"
        case .unexpectedEnd(let expected, _):
            return "the file ends too early: expected \(expected); the file looks truncated, restore it from version control"
        case .unexpectedCharacter(let found, let expected, _):
            return "unexpected '\(found)', expected \(expected); fix the syntax at this place"
        case .unterminatedString:
            return "a quoted string starts here but never ends; add the closing '\"'"
        case .unterminatedComment:
            return "a '/*' comment starts here but never ends; add the closing '*/'"
        case .invalidEscape(let sequence, _):
            return "invalid escape '\(sequence)' in a quoted string; use \\\\, \\\", \\n, \\t or \\U followed by 4 hex digits"
        case .invalidUTF8:
            return "the bytes here are not valid UTF-8; re-save the file as UTF-8"
        case .mergeConflict(let marker, _):
            return "git merge-conflict marker '\(marker)' in the project file; resolve the conflict, then run again"
        case .nestingTooDeep(let limit, _):
            return "values are nested more than \(limit) levels deep; this is not a project file Xcode writes"
        case .duplicateObjectID(let id, _, let first):
            return "object id '\(id)' is defined twice (first at line \(first.line)); remove or renumber one of them"
        case .invalidStructure(let message, _):
            return message
        case .missingObject(let id, _):
            return "no object with id '\(id)' exists in the project"
        case .wrongObjectKind(let id, let isa, let expected):
            return "object '\(id)' is a '\(isa)', not \(expected)"
        case .groupCycle(let id, _):
            return "group '\(id)' contains itself (a cycle in the group tree); remove the looping child reference"
        case .invalidXML(let message, _):
            return "XML property list: \(message)"
        case .invalidArgument(let message):
            return message
        case .fileTooLarge(let bytes):
            return "the file has \(bytes) bytes; files over 4 GiB are not supported"
        case .unreadable(let path, let reason):
            return "cannot read '\(path)': \(reason)"
        case .unwritable(let path, let reason):
            return "cannot write '\(path)': \(reason); check the folder's permissions and free space"
        }
    }
}

extension PBXProjError: LocalizedError {
    /// `line:column: message`, or just the message when the error has no place.
    public var errorDescription: String? {
        if let location { return "\(location): \(message)" }
        return message
    }
}
