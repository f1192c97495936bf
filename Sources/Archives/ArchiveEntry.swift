/// One entry of an archive, as it will be stored.
public struct ArchiveEntry: Sendable, Hashable {
    /// What the entry holds.
    public enum Content: Sendable, Hashable {
        /// A regular file's bytes, read from `source` while writing.
        case file(source: String, size: Int64)
        /// A folder.
        case directory
        /// A symbolic link and its target.
        case symbolicLink(target: String)
    }

    /// The path inside the archive, `/`-separated, without a leading or trailing slash.
    public var name: String
    /// What it holds.
    public var content: Content
    /// Permission bits as stored: 0755 for folders and executables, 0644 for other files,
    /// 0777 for links; never the builder's own umask or owner.
    public var mode: UInt16

    /// Creates an entry.
    public init(name: String, content: Content, mode: UInt16) {
        self.name = name
        self.content = content
        self.mode = mode
    }

    /// The name with a trailing `/` for folders: the order archives list entries in.
    public var storedName: String {
        if case .directory = content { return name + "/" }
        return name
    }

    /// The bytes of a regular file, 0 for others.
    public var size: Int64 {
        if case .file(_, let size) = content { return size }
        return 0
    }
}
