import Archives
import Basics
import Foundation
import Publish

/// `archive`: a reproducible tar.gz or zip of files and folders.
public struct ArchiveStep: Step {
    public static let description = StepDescription(
        id: "archive",
        summary: "Pack files into a reproducible .tar.gz or .zip",
        discussion: """
            Two runs over the same files give byte-identical archives: entries are sorted, every \
            time stamp is SOURCE_DATE_EPOCH (or 0, or the mtime option), owners are 0 without \
            names, and modes are 0755 for folders and executables and 0644 otherwise. Each \
            matched file or folder is stored once, under its path below the pattern's leading \
            folders (dist/*.txt stores a.txt, assets/** stores x.txt and sub/y.txt; folders with \
            their contents), or under its path relative to 'base' when that is set, inside \
            'prefix' when given. Links are stored as links; one that leads out of the project \
            fails the step. Patterns follow docs/patterns.md (relative to the working directory, \
            no folder link followed, nothing from outside the project); one that matches nothing \
            fails the step. The archive appears only once complete.
            """,
        options: [
            .required("files", .list(.string), "Files, folders or patterns (dist/*.txt, docs/**; rules in docs/patterns.md) to pack."),
            .required("output", .string, "The archive to write; its extension (.tar.gz, .tgz, .zip) picks the format."),
            .optional("format", .choice(["auto", "tar.gz", "zip"]), default: .string("auto"), "The format, when the name does not tell."),
            .optional("prefix", .string, "A folder inside the archive to put everything in, e.g. slipway-1.2.0."),
            .optional("base", .string, "Store paths relative to this folder instead of by name alone."),
            .optional("mtime", .int, "The time stamp of every entry, in seconds since 1970 (default: SOURCE_DATE_EPOCH, else 0)."),
            .optional("compression-level", .int, default: .int(6), "zlib's level, 0 (none) to 9 (smallest)."),
        ],
        outputs: [
            OutputSpec("path", "The archive's path (relative to the working directory when inside it).", file: true),
            OutputSpec("sha256", "The archive's SHA-256, lower-case hex."),
        ],
        examples: [
            StepExample("A release tarball", """
                - archive: { files: [.build/release/slipway, LICENSE, README.md], output: dist/slipway-linux.tar.gz }
                """),
            StepExample("A zip with everything in a versioned folder", """
                - archive:
                    files: [build/App.app, docs]
                    output: dist/App-1.2.0.zip
                    prefix: App-1.2.0
                """),
            StepExample("Everything inside a folder, each file once (x.txt, sub/y.txt)", """
                - archive: { files: ["assets/**"], output: dist/assets.zip }
                """),
        ]
    )

    let files: [String]
    let output: String
    let format: ArchiveFormat
    let prefix: String?
    let base: String?
    let mtime: Int64?
    let compressionLevel: Int

    public init(options: StepOptions) throws {
        files = try options.strings("files")
        output = try options.requiredString("output")
        prefix = try options.string("prefix")
        base = try options.string("base")
        mtime = try options.int("mtime").map(Int64.init)
        compressionLevel = try options.requiredInt("compression-level")
        guard !files.isEmpty else { throw StepError.invalidOption(name: "files", problem: "is empty. List the files to pack.") }
        guard (0...9).contains(compressionLevel) else {
            throw StepError.invalidOption(name: "compression-level", problem: "must be between 0 and 9, not \(compressionLevel)")
        }
        if let mtime, mtime < 0 { throw StepError.invalidOption(name: "mtime", problem: "must not be negative") }
        if let prefix, prefix.split(separator: "/").contains("..") || prefix.hasPrefix("/") {
            throw StepError.invalidOption(name: "prefix", problem: "'\(prefix)' must be a relative folder without '..'")
        }
        switch try options.requiredString("format") {
        case "tar.gz": format = .tarGzip
        case "zip": format = .zip
        default:
            guard let inferred = ArchiveFormat(fileName: output) else {
                throw StepError.invalidOption(name: "output", problem: "'\(output)' does not end in .tar.gz, .tgz or .zip. Rename it or set format.")
            }
            format = inferred
        }
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        _ = try context.checkedOutput(output)
        let inside = prefix.map { " inside \($0)/" } ?? ""
        return [Effect(.write, "\(output) (\(format.rawValue) of \(files.joined(separator: ", "))\(inside), time stamps \(modificationTime(context)))")]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let streams = LocalFileStreams()
        let outputPath = context.resolve(output)
        // The archive is written by streams beside the file system: check its place with the
        // door first (no folder link out of the project, no link at its name).
        let writePath = try context.checkedOutput(output)
        let matches = try PublishStepSupport.files(files, in: context, includeDirectories: true).filter { $0.path != outputPath }
        // A folder is packed with its contents, so what a pattern also matched inside it is
        // already there (`assets/**` matches `assets/sub` and `assets/sub/y.txt`).
        var folders: [String] = []
        var inputs: [ArchiveInput] = []
        for match in matches where !folders.contains(where: { match.path.hasPrefix($0 + "/") }) {
            if match.kind == .directory { folders.append(match.path) }
            inputs.append(ArchiveInput(path: match.path, name: try storedName(match, context: context)))
        }
        let glob = PublishStepSupport.glob(context)
        let entries = try ArchiveLayout(fileSystem: context.fileSystem, streams: streams)
            .entries(for: inputs, prefix: prefix, checkLink: glob.checkLink)
        try context.fileSystem.createDirectory((outputPath as NSString).deletingLastPathComponent)
        let events = context.events
        let request = ArchiveRequest(output: writePath, format: format, entries: entries,
                                     modificationTime: modificationTime(context), compressionLevel: compressionLevel)
        let result = try Archiver(streams: streams).write(request) { done, total in
            events.progress(fraction: total > 0 ? Double(done) / Double(total) : nil, message: "archiving \(output)")
        }
        context.events.log(.info, "wrote \(output): \(result.entryCount) entries, \(result.size) bytes, sha256 \(result.sha256)")
        return ["path": PublishStepSupport.display(outputPath, in: context), "sha256": result.sha256]
    }

    private func storedName(_ match: ProjectGlob.Match, context: StepContext) throws -> String {
        let path = match.path
        guard let base else { return match.tail }
        let folder = context.resolve(base)
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        guard path.hasPrefix(prefix) else { throw PublishError.outsideBase(path: path, base: base) }
        return String(path.dropFirst(prefix.count))
    }

    /// The time every entry gets: the option, SOURCE_DATE_EPOCH, or 0.
    private func modificationTime(_ context: StepContext) -> Int64 {
        if let mtime { return mtime }
        return context.environment["SOURCE_DATE_EPOCH"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) } ?? 0
    }
}
