import Basics

/// What lock and install are doing, for progress output. The CLI shows these as live lines on a
/// terminal and as plain lines elsewhere.
public enum PinsEvent: Sendable, Hashable {
    /// Resolving a tool's version.
    case resolving(tool: String)
    /// A tool's lock entry was kept as it was.
    case kept(tool: String, version: String)
    /// A tool was resolved to `version`.
    case resolved(tool: String, version: String)
    /// Bytes of an archive arrived.
    case downloading(tool: String, url: String, progress: HTTPTransferProgress)
    /// Building a tool from source.
    case building(tool: String, command: String)
    /// A tool's locked version was already installed and intact.
    case alreadyInstalled(tool: String, version: String)
    /// A tool was installed at `path`.
    case installed(tool: String, version: String, path: String)
    /// Leftovers of an interrupted install were removed.
    case removedLeftovers(count: Int)
    /// A git tool's executable checksum was recorded in the lockfile.
    case recordedChecksum(tool: String, platform: String)
}

/// Receives progress events (from any task; keep it quick).
public typealias PinsEventHandler = @Sendable (PinsEvent) -> Void
