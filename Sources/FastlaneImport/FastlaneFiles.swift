import Basics

/// fastlane's files in a project: the Fastfile, and the Appfile and Matchfile when present, read
/// from `fastlane/` (or `.fastlane/`) as fastlane finds them.
public struct FastlaneFiles: Sendable {
    public var fastfile: Fastfile
    public var appfile: FastlaneSettings?
    public var matchfile: FastlaneSettings?
    /// Defaults of gym and scan (`Gymfile`, `Scanfile`).
    public var gymfile: FastlaneSettings?
    public var scanfile: FastlaneSettings?
    /// deliver's defaults (`Deliverfile`).
    public var deliverfile: FastlaneSettings?
    /// Whether a Gemfile is in the project folder (beside the fastlane folder): fastlane then runs
    /// `pod install` through `bundle exec`.
    public var projectHasGemfile = false
    /// `import` statements that were not followed, with the reason.
    public var skippedImports: [UntranslatedItem] = []

    /// At most this many files are imported (fastlane projects split a Fastfile into a dozen).
    public static let maximumImports = 64

    init(fastfile: Fastfile) {
        self.fastfile = fastfile
    }

    /// `base/relative` with `.` and `..` resolved; nil when it climbs above the project.
    static func normalize(_ base: String, _ relative: String) -> String? {
        guard !relative.hasPrefix("/") else { return nil }
        var parts: [Substring] = []
        for part in (base + "/" + relative).split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// Reads them; paths in messages are relative to `directory`.
    ///
    /// The checkout may be untrusted: only regular files are read (a symbolic link is refused, so
    /// a link cannot make Slipway read outside the project), each at most `Fastfile.maximumSize`,
    /// and nothing in them is run.
    ///
    /// - Throws: `FastlaneImportError.noFastfile`, `.tooLarge`, `.unreadable`, `.syntax`.
    public static func load(from directory: String, fileSystem: FileSystem) throws -> FastlaneFiles {
        guard let folder = ["fastlane", ".fastlane"].first(where: { fileSystem.kind(of: directory + "/" + $0 + "/Fastfile") != nil }) else {
            throw FastlaneImportError.noFastfile(directory: directory)
        }
        func text(_ name: String) throws -> (String, String)? {
            let relative = folder + "/" + name
            let path = directory + "/" + relative
            // No component may be a link: a linked folder could lead out of the project.
            var prefix = directory
            for component in relative.split(separator: "/").dropLast() {
                prefix += "/" + component
                if fileSystem.kind(of: prefix) == .symbolicLink {
                    throw FastlaneImportError.unreadable(file: relative, reason: "'\(prefix.dropFirst(directory.count + 1))' is a symbolic link; Slipway reads only regular files and folders there")
                }
            }
            guard let kind = fileSystem.kind(of: path) else { return nil }
            guard kind == .file else {
                throw FastlaneImportError.unreadable(file: relative, reason: "it is not a regular file (a link or a folder); Slipway reads only regular files there")
            }
            if let size = fileSystem.status(of: path)?.details?.size, size > Int64(Fastfile.maximumSize) {
                throw FastlaneImportError.tooLarge(file: relative, limit: Fastfile.maximumSize)
            }
            let bytes = try fileSystem.read(path)
            guard bytes.count <= Fastfile.maximumSize else { throw FastlaneImportError.tooLarge(file: relative, limit: Fastfile.maximumSize) }
            guard let source = String(validating: bytes, as: UTF8.self) else {
                throw FastlaneImportError.unreadable(file: relative, reason: "it is not UTF-8 text")
            }
            return (source, relative)
        }
        guard let (source, path) = try text("Fastfile") else { throw FastlaneImportError.noFastfile(directory: directory) }
        var files = FastlaneFiles(fastfile: try Fastfile(source: source, path: path))
        files.appfile = try text("Appfile").map { try FastlaneSettings(source: $0.0, path: $0.1) }
        files.matchfile = try text("Matchfile").map { try FastlaneSettings(source: $0.0, path: $0.1) }
        files.gymfile = try text("Gymfile").map { try FastlaneSettings(source: $0.0, path: $0.1) }
        files.scanfile = try text("Scanfile").map { try FastlaneSettings(source: $0.0, path: $0.1) }
        files.deliverfile = try text("Deliverfile").map { try FastlaneSettings(source: $0.0, path: $0.1) }
        // Only whether it is there (fastlane's File.exist?): it is never read.
        files.projectHasGemfile = fileSystem.kind(of: directory + "/Gemfile") != nil
        try files.followImports(folder: folder, from: path, read: text)
        files.fastfile.otherTopLevel.removeAll { statement in
            if case .call(let call) = statement.kind, call.name == "import" { return true } else { return false }
        }
        return files
    }

    /// `import 'relative/path.rb'`, followed inside the fastlane folder only; each file's lanes,
    /// hooks, methods and constants are merged into the Fastfile.
    private mutating func followImports(folder: String, from path: String, read text: (String) throws -> (String, String)?) throws {
        var queue = fastfile.imports.map { (folder, $0.path, $0.statement) }
        var seen: Set<String> = [path]
        while !queue.isEmpty {
            let (base, relative, statement) = queue.removeFirst()
            let location = "\(statement.file):\(statement.line)"
            guard let normalized = Self.normalize(base, relative), normalized.hasPrefix(folder + "/") else {
                skippedImports.append(UntranslatedItem(location: location, what: statement.text,
                                                             reason: "imports a file outside the \(folder) folder; Slipway reads only files inside it"))
                continue
            }
            guard seen.insert(normalized).inserted else { continue }
            guard seen.count <= Self.maximumImports else {
                throw FastlaneImportError.unreadable(file: normalized, reason: "more than \(Self.maximumImports) imported files")
            }
            guard let (importedSource, importedPath) = try text(String(normalized.dropFirst(folder.count + 1))) else {
                skippedImports.append(UntranslatedItem(location: location, what: statement.text, reason: "the file does not exist"))
                continue
            }
            let imported = try Fastfile(source: importedSource, path: importedPath)
            let importedFolder = String(importedPath[..<(importedPath.lastIndex(of: "/") ?? importedPath.startIndex)])
            queue += imported.imports.map { (importedFolder, $0.path, $0.statement) }
            fastfile.merge(imported)
        }
    }
}
