import Basics
import Foundation
import PBXProj
import Sync

/// What every rule sees: the project file's bytes, the project when it could be read (or why it
/// could not), its group tree and the files around it.
public struct LintContext: Sendable {
    /// The project.pbxproj's path as shown in findings.
    public let pbxprojPath: String
    /// The `.xcodeproj` folder, relative to the project's folder (`App.xcodeproj`).
    public let bundlePath: String
    /// The file's bytes.
    public let bytes: [UInt8]
    /// The project, when it could be read.
    public let project: PBXProject?
    /// Why the project could not be read (merge-conflict markers, duplicate ids, ...).
    public let readError: PBXProjError?
    /// The group tree, when the project has a sound one.
    public let groupTree: GroupTree?
    /// The files around the project.
    public let files: LintFiles
    let memo = LintMemo()

    /// Reads `bytes` as the project named `projectName`; a file that cannot be read becomes
    /// `readError` (the rules that find such problems report it).
    public init(bytes: [UInt8], projectName: String, pbxprojPath: String, files: LintFiles) {
        self.bytes = bytes
        self.pbxprojPath = pbxprojPath
        self.bundlePath = projectName + ".xcodeproj"
        self.files = files
        do {
            let project = try PBXProject(bytes: bytes, projectName: projectName)
            self.project = project
            self.readError = nil
            self.groupTree = try? project.groupTree()
        } catch let error as PBXProjError {
            project = nil
            readError = error
            groupTree = nil
        } catch {
            project = nil
            readError = .invalidStructure(message: "\(error)", at: nil)
            groupTree = nil
        }
    }

}

/// `*` (within a component), `**` (any depth) and prefix matching of paths.
enum LintGlob {
    /// Whether `pattern` matches `path` or one of its parent folders.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        let patternParts = pattern.split(separator: "/").map(String.init)
        let pathParts = path.split(separator: "/").map(String.init)
        return match(patternParts[...], pathParts[...])
    }

    private static func match(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return true }   // a matched folder covers what is below it
        if first == "**" {
            var rest = path
            while true {
                if match(pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        }
        guard let component = path.first, component.matches(wildcard: first) else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }
}

extension String {
    /// Whether the string matches a pattern where `*` stands for any run of characters.
    func matches(wildcard pattern: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return self == pattern }
        var rest = Substring(self)
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for part in parts.dropFirst().dropLast() {
            guard let range = rest.firstRange(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        let last = parts[parts.count - 1]
        return rest.count >= last.count && rest.hasSuffix(last)
    }
}

/// Results several rules share, computed once per context: the sync plan, where objects are in
/// the file (the engine and duplicate-reference both place objects), what the file references
/// and settings point at, the synchronized folders and the submodules.
final class LintMemo: Sendable {
    let syncPlan = LintOnce<SyncPlan?>()
    let locator = LintOnce<ObjectLocator?>()
    let references = LintOnce<LintReferences>()
    let synchronizedFolders = LintOnce<LintSynchronizedFolders>()
    let submodules = LintOnce<LintSubmodules>()
}

/// A value computed at most once, on first use, by whichever caller comes first.
final class LintOnce<Value: Sendable>: Sendable {
    private let value = Locked<Value?>(nil)

    func get(_ make: () -> Value) -> Value {
        value.withLock { value in
            if let known = value { return known }
            let made = make()
            value = made
            return made
        }
    }
}

extension LintContext {
    /// Where each object's id is in the file (added objects and unknown ids left out).
    func locations(of ids: some Sequence<ObjectID>) -> [ObjectID: PBXProj.SourceLocation] {
        guard let locator = memo.locator.get({ project.map { $0.objectLocator() } }) else { return [:] }
        var result: [ObjectID: PBXProj.SourceLocation] = [:]
        for id in ids where result[id] == nil { result[id] = locator.location(of: id) }
        return result
    }
}
