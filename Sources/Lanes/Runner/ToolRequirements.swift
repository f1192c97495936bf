/// What the runner needs from the project's pinned tools (the Pins module provides it; the
/// lanes layer only sees this protocol).
public protocol ToolRequirements: Sendable {
    /// Throws, with a message listing each failed check, unless every named tool is installed
    /// and matches the lock (checksum and version).
    func requireVerified(names: [String]) async throws
    /// Folders of the pinned, installed executables, searched for plugins before PATH.
    func executableDirectories() throws -> [String]
}
