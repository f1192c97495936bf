import Basics
import Foundation

/// Unpacks `.tar.gz`/`.tgz` archives with the system's `tar` and `.zip` archives with `unzip`,
/// refusing anything that would land outside the destination: entries are listed first and an
/// absolute path or a `..` component stops everything before a byte is extracted; after
/// extraction, symbolic links that point outside the folder are refused too.
struct ArchiveUnpacker: Sendable {
    let context: PinsContext

    typealias Format = ArchiveFormat

    /// The format by the URL's path suffix.
    static func format(of url: String) -> Format? { ArchiveFormat(url: url) }

    /// Unpacks `archive` (downloaded from `url`) into the empty folder `destination`.
    /// - Throws: `PinsError.unsupportedArchive`, `.unzipMissing`, `.archiveEntryEscapes`,
    ///   `.unpackFailed`.
    func unpack(_ archive: String, url: String, into destination: String) async throws {
        guard let format = Self.format(of: url) else { throw PinsError.unsupportedArchive(url: url) }
        let lister: (String, [String])
        let extractor: (String, [String])
        switch format {
        case .tarGzip:
            lister = ("tar", ["-tzf", archive])
            extractor = ("tar", ["-xzf", archive, "-C", destination, "--no-same-owner"])
        case .zip:
            guard ExecutableLocator.find("unzip", environment: context.environment.variables) != nil else {
                throw PinsError.unzipMissing(archive: url)
            }
            lister = ("unzip", ["-Z1", archive])
            extractor = ("unzip", ["-q", "-o", archive, "-d", destination])
        }
        let listing = try await run(lister, url: url)
        for entry in listing.split(separator: "\n").map(String.init) where Self.escapes(entry) {
            throw PinsError.archiveEntryEscapes(archive: url, entry: entry)
        }
        _ = try await run(extractor, url: url)
        try checkLinks(in: destination, relative: "", url: url)
    }

    /// True for an entry name that is absolute or climbs with `..`.
    static func escapes(_ entry: String) -> Bool {
        if entry.hasPrefix("/") || entry.hasPrefix("\\") { return true }
        return entry.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains("..")
    }

    private func run(_ command: (String, [String]), url: String) async throws -> String {
        let spec = ProcessSpec(executable: command.0, arguments: command.1, environment: context.environment.variables)
        let result: ProcessResult
        do {
            result = try await context.processRunner.run(spec)
        } catch {
            throw PinsError.unpackFailed(archive: url, output: errorText(error))
        }
        guard result.status.isSuccess else {
            let output = (result.errorText + result.outputText).trimmingCharacters(in: .whitespacesAndNewlines)
            throw PinsError.unpackFailed(archive: url, output: "'\(spec.commandLine)' ended with \(result.status): \(output)")
        }
        return result.outputText
    }

    /// Walks the unpacked tree and refuses links whose destination lies outside it.
    private func checkLinks(in root: String, relative: String, url: String) throws {
        let folder = relative.isEmpty ? root : root + "/" + relative
        for name in try context.fileSystem.contents(ofDirectory: folder) {
            let entry = relative.isEmpty ? name : relative + "/" + name
            switch context.fileSystem.kind(of: root + "/" + entry) {
            case .directory:
                try checkLinks(in: root, relative: entry, url: url)
            case .symbolicLink:
                guard let destination = context.fileSystem.destinationOfSymbolicLink(root + "/" + entry) else {
                    throw FileSystemError.failed(path: root + "/" + entry, operation: "read the link", reason: "it could not be read")
                }
                if !Self.staysInside(link: entry, destination: destination) {
                    throw PinsError.archiveEntryEscapes(archive: url, entry: "\(entry) -> \(destination)")
                }
            default:
                continue
            }
        }
    }

    /// True when a link at `link` (relative to the root) pointing at `destination` resolves
    /// inside the root, judged on the names alone.
    static func staysInside(link: String, destination: String) -> Bool {
        if destination.hasPrefix("/") { return false }
        var depth = link.split(separator: "/").count - 1
        for component in destination.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": depth -= 1
            default: depth += 1
            }
            if depth < 0 { return false }
        }
        return true
    }
}
