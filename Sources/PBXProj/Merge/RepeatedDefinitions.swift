/// A version of a project that defines one object twice with the same value, as a line-based merge
/// leaves behind when both branches added the same lines. Xcode reads such a file (one definition
/// wins) and writes it back with one; Slipway's reader refuses it, since two definitions that
/// differ would lose one. For merging, a repeat whose value equals the first definition's (the
/// text but for comments and spacing) is dropped; a repeat that differs is still an error.
public enum RepeatedDefinitions {
    /// `bytes` without the repeats equal to their first definition, and the ids that were repeated; the input itself
    /// when it has none.
    /// - Throws: the reader's error for anything else, a repeat that differs included.
    public static func removeIdentical(_ bytes: [UInt8], projectName: String) throws -> (project: PBXProject, repeated: [String]) {
        var current = bytes
        var repeated: [String] = []
        while true {
            do {
                return (try PBXProject(bytes: current, projectName: projectName), repeated)
            } catch PBXProjError.duplicateObjectID(let id, let at, let first) where repeated.count < 10_000 {
                guard let second = definition(atLine: at.line, in: current),
                    let original = definition(atLine: first.line, in: current),
                    withoutComments(current[second]) == withoutComments(current[original])
                else { throw PBXProjError.duplicateObjectID(id: id, at: at, first: first) }
                current.removeSubrange(second)
                repeated.append(id)
            }
        }
    }

    /// The lines of the object definition whose key starts line `line` (1-based): from the
    /// line's start through the line holding the `;` that ends the value.
    static func definition(atLine line: Int, in bytes: [UInt8]) -> Range<Int>? {
        guard line >= 1 else { return nil }
        var start = 0
        var seen = 1
        while seen < line {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return nil }
            start = newline + 1
            seen += 1
        }
        guard let end = endOfValue(from: start, in: bytes) else { return nil }
        let lineEnd = bytes[end...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
        return start..<lineEnd
    }

    /// The index just past the `;` closing the key's value, skipping strings and comments.
    private static func endOfValue(from start: Int, in bytes: [UInt8]) -> Int? {
        var index = start
        var depth = 0
        var sawEquals = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x22:  // a quoted string
                index += 1
                while index < bytes.count, bytes[index] != 0x22 { index += bytes[index] == 0x5C ? 2 : 1 }
            case 0x2F where index + 1 < bytes.count && bytes[index + 1] == 0x2A:  // /* comment */
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == 0x2A && bytes[index + 1] == 0x2F) { index += 1 }
                index += 1
            case 0x3D: sawEquals = true
            case 0x7B, 0x28: depth += 1
            case 0x7D, 0x29: depth -= 1
            case 0x3B where sawEquals && depth == 0: return index + 1
            default: break
            }
            index += 1
        }
        return nil
    }

    /// The definition's text without `/* comments */` and whitespace outside quoted strings:
    /// two definitions with equal values but other comments (Xcode derives comments, and one
    /// side may have named the file by its path) compare equal.
    static func withoutComments(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == 0x22 {
                let start = index
                index += 1
                while index < text.endIndex, text[index] != 0x22 { index += text[index] == 0x5C ? 2 : 1 }
                index = min(index + 1, text.endIndex)
                result += text[start..<index]
                continue
            }
            if byte == 0x2F, index + 1 < text.endIndex, text[index + 1] == 0x2A {
                index += 2
                while index + 1 < text.endIndex, !(text[index] == 0x2A && text[index + 1] == 0x2F) { index += 1 }
                index = min(index + 2, text.endIndex)
                continue
            }
            if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { result.append(byte) }
            index += 1
        }
        return result
    }
}
