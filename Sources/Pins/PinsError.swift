import Basics
import Foundation

/// Everything the Pins module throws (besides `DiagnosticsError` for a Toolfile with problems,
/// which carries file, line and column). Each message names its subject and says what to do.
public enum PinsError: Error, Sendable, Equatable {
    /// There is no Toolfile in the project.
    case toolfileNotFound(path: String)
    /// There is no Toolfile.lock in the project.
    case lockfileNotFound(path: String)
    /// The lockfile is not valid JSON or does not have the expected shape.
    case lockfileCorrupt(path: String, reason: String)
    /// The lockfile's format version is not one this build reads.
    case lockfileUnsupportedVersion(path: String, found: Int, supported: Int)
    /// The lockfile does not match the Toolfile (entries missing, stale or for another source).
    case lockOutOfDate(path: String, problems: [String])
    /// A name on the command line is not a tool of the Toolfile.
    case unknownTool(name: String, known: [String])
    /// No available version satisfies the tool's constraint.
    case unsatisfiable(tool: String, constraint: String, available: [String])
    /// An archive tool's constraint is not one exact version.
    case archiveNeedsExactVersion(tool: String, constraint: String)
    /// The tag that was locked now points at another commit.
    case tagMoved(tool: String, url: String, tag: String, locked: String, current: String)
    /// The locked tag no longer exists on the remote.
    case tagMissing(tool: String, url: String, tag: String)
    /// A downloaded archive or an installed executable has another checksum than the lock says.
    case checksumMismatch(tool: String, subject: String, expected: String, found: String)
    /// A build from source produced an executable that differs from the one recorded.
    case buildNotReproducible(tool: String, platform: String, expected: String, found: String)
    /// The tool printed nothing its version pattern could parse.
    case versionUnparsable(tool: String, command: String, output: String)
    /// The installed tool reports another version than the lock's.
    case versionMismatch(tool: String, expected: String, found: String)
    /// The lock has no download for this platform.
    case platformNotLocked(tool: String, platform: String)
    /// An archive would write outside its folder (`../`, an absolute path, or a symbolic link).
    case archiveEntryEscapes(archive: String, entry: String)
    /// A zip's entries claim more bytes, unpacked, than Slipway unpacks for a tool.
    case archiveTooLarge(archive: String, size: UInt64, limit: UInt64)
    /// An archive is neither `.tar.gz`/`.tgz` nor `.zip`.
    case unsupportedArchive(url: String)
    /// `unzip` is needed for a `.zip` archive and is not installed.
    case unzipMissing(archive: String)
    /// Unpacking an archive failed.
    case unpackFailed(archive: String, output: String)
    /// The executable the Toolfile names is not in the archive or build output.
    case executableMissing(tool: String, path: String)
    /// A download could not be completed.
    case downloadFailed(tool: String, url: String, reason: String)
    /// An archive URL whose scheme is not http or https (`file://`, `ftp://`, ...): refused
    /// before anything is downloaded or written.
    case refusedScheme(tool: String, url: String)
    /// A download broke a limit (`HTTPError.responseTooLarge`, `.stalled`); `reason` is that
    /// error's message, which names the URL, the limit and how to raise it.
    case downloadStopped(tool: String, reason: String)
    /// No HTTP client was provided, and the command needs to download.
    case networkUnavailable(tool: String)
    /// Cloning or checking out a tool's repository failed.
    case fetchFailed(tool: String, url: String, reason: String)
    /// `swift build` failed.
    case buildFailed(tool: String, command: String, output: String)
    /// A system tool is not on PATH.
    case systemToolMissing(tool: String, executable: String)
    /// A dependency lockfile (Package.resolved, Podfile.lock, Cartfile(.resolved), Gemfile.lock)
    /// cannot be read; `fix` says how to regenerate it.
    case malformedDependencyFile(file: String, line: Int?, reason: String, fix: String)
    /// A dependency lockfile has a format version this build does not know.
    case unsupportedDependencyFileVersion(file: String, version: Int, supported: [Int])
    /// A tool did not pass verification (used by `exec` and lane `requires:`).
    case toolsNotVerified([ToolStatus])
}

extension PinsError: LocalizedError {
    /// What went wrong, on what, and what to do about it.
    public var errorDescription: String? {
        switch self {
        case let .toolfileNotFound(path):
            return "There is no Toolfile at '\(path)'. Create one (see docs/pins.md), or pass the project's folder with -C."
        case let .lockfileNotFound(path):
            return "There is no lockfile at '\(path)'. Run 'slipway tools lock' to write it, then commit it."
        case let .lockfileCorrupt(path, reason):
            return "'\(path)' is not a valid Toolfile.lock: \(reason). Restore it from version control, or delete "
                + "it and run 'slipway tools lock' to write it again."
        case let .lockfileUnsupportedVersion(path, found, supported):
            return "'\(path)' has format version \(found), but this slipway reads version \(supported). "
                + "Update slipway, or run 'slipway tools lock' to write the lock again in version \(supported)."
        case let .lockOutOfDate(path, problems):
            return "'\(path)' does not match the Toolfile: " + problems.joined(separator: "; ")
                + ". Run 'slipway tools lock' to update it."
        case let .unknownTool(name, known):
            let list = known.isEmpty ? "the Toolfile lists no tools" : "tools: \(known.joined(separator: ", "))"
            return "The Toolfile has no tool '\(name)'.\(Suggestions.didYouMean(name, in: known)) (\(list))"
        case let .unsatisfiable(tool, constraint, available):
            let list = available.isEmpty ? "none (no tag is a semantic version)" : available.joined(separator: ", ")
            return "No version of '\(tool)' satisfies '\(constraint)'. Available versions: \(list). "
                + "Change the constraint in the Toolfile."
        case let .archiveNeedsExactVersion(tool, constraint):
            return "'\(tool)' is an archive tool, and an archive's versions cannot be listed, so its version must be "
                + "exact: write e.g. 'version: 1.2.3' instead of '\(constraint)'."
        case let .tagMoved(tool, url, tag, locked, current):
            return "Tag '\(tag)' of '\(tool)' (\(url)) now points at commit \(current), but Toolfile.lock pinned it "
                + "to commit \(locked). The tag was moved after locking; nothing was installed. Ask the tool's "
                + "maintainers why; if the new commit is trusted, run 'slipway tools lock --update \(tool)'."
        case let .tagMissing(tool, url, tag):
            return "Tag '\(tag)' of '\(tool)' no longer exists at '\(url)'; nothing was installed. "
                + "Run 'slipway tools lock --update \(tool)' to pick another version."
        case let .checksumMismatch(tool, subject, expected, found):
            return "\(subject) of '\(tool)' has sha256 \(found), but Toolfile.lock expects \(expected); nothing was "
                + "installed. It changed upstream or on the way; if the change is expected, run "
                + "'slipway tools lock --update \(tool)'."
        case let .buildNotReproducible(tool, platform, expected, found):
            return "Building '\(tool)' from its locked commit gave an executable with sha256 \(found) on \(platform), "
                + "but Toolfile.lock recorded \(expected); nothing was installed. Builds from source match only "
                + "with the same Swift toolchain: use the toolchain the checksum was recorded with, or run "
                + "'slipway tools lock --update \(tool)' and 'slipway tools install' to record this build."
        case let .versionUnparsable(tool, command, output):
            let shown = output.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200)
            return "'\(command)' printed no version that could be parsed for '\(tool)' (it printed: "
                + "'\(shown)'). Set 'version-regex' for '\(tool)' in the Toolfile to a pattern whose first group "
                + "captures the version, or 'version-args' to the arguments that print it."
        case let .versionMismatch(tool, expected, found):
            return "'\(tool)' reports version \(found), but Toolfile.lock pins \(expected); nothing was installed. "
                + "Check the tool's release (the archive or tag may be mislabelled), or set 'version-regex' for it."
        case let .platformNotLocked(tool, platform):
            return "Toolfile.lock has no archive of '\(tool)' for \(platform). Add '\(platform)' to the tool's "
                + "'platforms' in the Toolfile and run 'slipway tools lock --update \(tool)'."
        case let .archiveEntryEscapes(archive, entry):
            return "The archive '\(archive)' contains '\(entry)', which would be written outside the archive's "
                + "folder. Refusing to unpack it; nothing was installed. Report it to the tool's publisher."
        case let .archiveTooLarge(archive, size, limit):
            return "The archive '\(archive)' claims \(size) bytes unpacked, more than the \(limit) Slipway unpacks for a "
                + "tool. Refusing to unpack it; nothing was installed. Report it to the tool's publisher."
        case let .unsupportedArchive(url):
            return "'\(url)' is not a .tar.gz, .tgz or .zip archive. Point the tool's 'archive' URL at one of those."
        case let .unzipMissing(archive):
            return "'unzip' is not on PATH, and it is needed to unpack '\(archive)'. Install it (apt-get install "
                + "unzip) and try again."
        case let .unpackFailed(archive, output):
            return "Could not unpack '\(archive)': \(output.trimmingCharacters(in: .whitespacesAndNewlines)). "
                + "Check that the URL serves a complete archive."
        case let .executableMissing(tool, path):
            return "'\(path)' is not an executable file in what was installed for '\(tool)'. Set 'executable' "
                + "(archive) or 'product' (git) in the Toolfile to the right path or product name."
        case let .downloadFailed(tool, url, reason):
            let reason = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
            return "Downloading '\(tool)' from '\(url)' failed: \(reason). Check the URL and the network."
        case let .refusedScheme(tool, url):
            return "Refusing to download '\(tool)' from '\(url)': \(ArchiveURLPolicy.reason) \(ArchiveURLPolicy.remedy)"
        case let .downloadStopped(tool, reason):
            return "Downloading '\(tool)' was stopped: \(reason)"
        case let .networkUnavailable(tool):
            return "'\(tool)' must be downloaded, but this command runs offline. Run 'slipway tools install'."
        case let .fetchFailed(tool, url, reason):
            return "Could not fetch '\(tool)' from '\(url)': \(reason)"
        case let .buildFailed(tool, command, output):
            return "Building '\(tool)' failed: '\(command)' said:\n\(output)\nFix the build or lock another version."
        case let .systemToolMissing(tool, executable):
            return "'\(executable)' (tool '\(tool)') is not on PATH. Install it, or change the Toolfile."
        case let .malformedDependencyFile(file, line, reason, fix):
            return "'\(file)'\(line.map { " line \($0)" } ?? "") cannot be read: \(reason). \(fix)"
        case let .unsupportedDependencyFileVersion(file, version, supported):
            return "'\(file)' has format version \(version); Slipway reads versions "
                + "\(supported.map(String.init).joined(separator: ", ")). Update Slipway to audit it."
        case let .toolsNotVerified(statuses):
            let failing = statuses.filter { !$0.isOK }
            return failing.map(\.summary).joined(separator: "\n")
        }
    }
}
