/// Build-step lines: `Word arguments... (in target 'T' from project 'P')`, where the arguments
/// are paths with spaces escaped as `\ `.
extension XcodeLogParser {
    typealias Kind = XcodeLogEvent.BuildStep.Kind

    /// Which argument names the step's subject.
    enum Subject {
        /// The file name of the argument at this index (negative: from the end).
        case fileName(Int)
        /// The argument at this index as it is, without the given prefix.
        case text(Int, dropping: String)
    }

    /// The step's first word → its kind and subject.
    static func stepShape(_ word: Substring) -> (Kind, Subject)? {
        switch word {
        case "SwiftCompile", "CompileSwift": (.compileSwift, .fileName(-1))
        case "CompileC": (.compileC, .fileName(1))
        case "SwiftEmitModule": (.emitSwiftModule, .text(2, dropping: "Emitting module for "))
        case "CompileAssetCatalog", "CompileAssetCatalogVariant": (.compileAssetCatalog, .fileName(-1))
        case "CompileStoryboard": (.compileStoryboard, .fileName(0))
        case "CompileXIB": (.compileXIB, .fileName(0))
        case "ProcessInfoPlistFile": (.processInfoPlist, .fileName(-1))
        case "CopySwiftLibs": (.copySwiftLibs, .fileName(0))
        case "Ld": (.link, .fileName(0))
        case "CodeSign": (.codeSign, .fileName(0))
        case "PhaseScriptExecution": (.runScript, .text(0, dropping: ""))
        case "ProcessProductPackaging": (.processProductPackaging, .fileName(0))
        case "GenerateDSYMFile": (.generateDSYM, .fileName(0))
        case "Touch": (.touch, .fileName(0))
        case "CreateUniversalBinary": (.createUniversalBinary, .fileName(0))
        case "Libtool": (.libtool, .fileName(0))
        default: nil
        }
    }

    /// The step a line starts, if its first word is a known one.
    static func buildStep(_ line: Substring) -> XcodeLogEvent.BuildStep? {
        guard let space = line.utf8.firstIndex(of: UInt8(ascii: " ")),
              let (kind, subjectRule) = stepShape(line[..<space]) else { return nil }
        var arguments = line[line.utf8.index(after: space)...]
        var target: String?
        if let marker = arguments.find(" (in target '") {
            let rest = arguments[marker.upperBound...]
            target = rest.firstIndex(of: "'").map { String(rest[..<$0]) }
            arguments = arguments[..<marker.lowerBound]
        }
        let words = splitArguments(arguments)
        let subject: String
        switch subjectRule {
        case .fileName(let index):
            let position = index < 0 ? words.count + index : index
            guard words.indices.contains(position) else { return nil }
            if kind == .compileSwift, words.count > 2, let batch = words[2].after("Compiling ") {
                subject = String(batch)
            } else {
                subject = fileName(words[position])
            }
        case .text(let index, let prefix):
            guard words.indices.contains(index) else { return nil }
            subject = String(words[index].after(prefix) ?? words[index])
        }
        return .init(kind, subject: subject, target: target)
    }

    /// Arguments split at unescaped spaces, with `\ ` turned into a space.
    static func splitArguments(_ text: Substring) -> [Substring] {
        var words: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        var sawEscape = false
        func finishWord(at end: Substring.UTF8View.Index) {
            guard start < end else { return }
            let word = text[start..<end]
            words.append(sawEscape ? Substring(word.filter { $0 != "\\" }) : word)
        }
        while index < utf8.endIndex {
            switch utf8[index] {
            case UInt8(ascii: "\\"):
                sawEscape = true
                index = utf8.index(after: index)
                if index < utf8.endIndex { index = utf8.index(after: index) }
            case UInt8(ascii: " "):
                finishWord(at: index)
                sawEscape = false
                index = utf8.index(after: index)
                start = index
            default:
                index = utf8.index(after: index)
            }
        }
        finishWord(at: utf8.endIndex)
        return words
    }

    /// The last path component.
    static func fileName(_ path: Substring) -> String {
        let utf8 = path.utf8
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return String(path) }
        return String(Substring(utf8[utf8.index(after: slash)...]))
    }
}
