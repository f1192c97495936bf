import Archives
import Basics
import Foundation

/// Unpacks `.tar.gz`/`.tgz` archives with the system's `tar` and `.zip` archives with `unzip`,
/// refusing anything that would land outside the destination: entries are listed first and an
/// absolute path or a `..` component stops everything before a byte is extracted; after
/// extraction, symbolic links that point outside the folder are refused too. A zip is listed by
/// Archives' own reader, not by `unzip`: its directory is read within limits, and sizes claimed
/// over `maximumUnpackedSize`, entries that share bytes (how zip bombs multiply) and links out
/// of the folder are refused before `unzip` runs.
struct ArchiveUnpacker: Sendable {
    let context: PinsContext

    typealias Format = ArchiveFormat

    /// The most a zip's entries may claim, unpacked, in total (as for an .ipa).
    static let maximumUnpackedSize: UInt64 = 4 << 30

    /// The format by the URL's path suffix.
    static func format(of url: String) -> Format? { ArchiveFormat(url: url) }

    /// Unpacks `archive` (downloaded from `url`) into the empty folder `destination`.
    /// - Throws: `PinsError.unsupportedArchive`, `.unzipMissing`, `.archiveEntryEscapes`,
    ///   `.archiveTooLarge`, `.unpackFailed`.
    func unpack(_ archive: String, url: String, into destination: String) async throws {
        guard let format = Self.format(of: url) else { throw PinsError.unsupportedArchive(url: url) }
        let listing: [String]
        let extractor: (String, [String])
        switch format {
        case .tarGzip:
            listing = try await run(("tar", ["-tzf", archive]), url: url).split(separator: "\n").map(String.init)
            extractor = ("tar", ["-xzf", archive, "-C", destination, "--no-same-owner"])
        case .zip:
            guard ExecutableLocator.find("unzip", environment: context.environment.variables) != nil else {
                throw PinsError.unzipMissing(archive: url)
            }
            // The directory may be up to 256 MiB: read off the cooperative pool.
            listing = try await BlockingWork.run(name: "slipway-zip-directory") { try Self.checkedZipNames(archive, url: url) }
            extractor = ("unzip", ["-q", "-o", archive, "-d", destination])
        }
        for entry in listing where Self.escapes(entry) {
            throw PinsError.archiveEntryEscapes(archive: url, entry: entry)
        }
        _ = try await run(extractor, url: url)
        try checkLinks(in: destination, relative: "", url: url)
    }

    /// The entry names of the zip at `archive`, read by `ZipDirectory` after its checks: the
    /// claimed sizes in total within `maximumUnpackedSize`, every entry's data before the
    /// directory and none overlapping, and every link's target inside the folder.
    /// - Throws: `PinsError.unpackFailed` for a zip the reader refuses, `.archiveTooLarge`,
    ///   `.archiveEntryEscapes` for a link out.
    static func checkedZipNames(_ archive: String, url: String) throws -> [String] {
        do {
            let zip = try ZipDirectory(path: archive)
            let total = try zip.totalUncompressedSize()
            guard total <= maximumUnpackedSize else {
                throw PinsError.archiveTooLarge(archive: url, size: total, limit: maximumUnpackedSize)
            }
            try zip.checkLayout()
            for entry in zip.entries where entry.isSymbolicLink {
                let target = String(decoding: try zip.contents(of: entry), as: UTF8.self)
                let name = entry.name.hasSuffix("/") ? String(entry.name.dropLast()) : entry.name
                if !staysInside(link: name, destination: target) {
                    throw PinsError.archiveEntryEscapes(archive: url, entry: "\(name) -> \(target)")
                }
            }
            return zip.entries.map(\.name)
        } catch let error as ZipDirectory.Malformed {
            throw PinsError.unpackFailed(archive: url, output: error.reason)
        }
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
