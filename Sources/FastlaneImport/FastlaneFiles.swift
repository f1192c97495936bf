import Basics

/// fastlane's files in a project: the Fastfile, and the Appfile and Matchfile when present, read
/// from `fastlane/` (or `.fastlane/`) as fastlane finds them.
public struct FastlaneFiles: Sendable {
    public var fastfile: Fastfile
    public var appfile: FastlaneSettings?
    public var matchfile: FastlaneSettings?

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
        let fastfile = try Fastfile(source: source, path: path)
        let appfile = try text("Appfile").map { try FastlaneSettings(source: $0.0, path: $0.1) }
        let matchfile = try text("Matchfile").map { try FastlaneSettings(source: $0.0, path: $0.1) }
        return FastlaneFiles(fastfile: fastfile, appfile: appfile, matchfile: matchfile)
    }
}
