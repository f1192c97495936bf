import Basics

/// One check of one tool: what was expected, what was found, and in which file.
public struct ToolCheck: Sendable, Hashable, Codable {
    /// What is checked.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The lockfile has an entry for the tool (or, for a stale entry, should not).
        case locked
        /// The lock entry still satisfies the Toolfile (source, URL, constraint).
        case toolfile
        /// The executable is there (installed in the cache, or on PATH for system tools).
        case installed
        /// The executable's SHA-256 equals the lock's.
        case checksum
        /// The version the executable prints equals the lock's (system tools: satisfies the
        /// constraint).
        case version
    }

    /// What is checked.
    public var check: Kind
    /// True when it passed.
    public var ok: Bool
    /// What should be.
    public var expected: String
    /// What is.
    public var found: String
    /// The file concerned: the executable, `Toolfile:line:column` or `Toolfile.lock`.
    public var file: String
    /// For a failed check: what to do about it.
    public var advice: String?

    /// Creates a check result.
    public init(check: Kind, ok: Bool, expected: String, found: String, file: String, advice: String? = nil) {
        self.check = check
        self.ok = ok
        self.expected = expected
        self.found = found
        self.file = file
        self.advice = ok ? nil : advice
    }
}

/// Everything `tools verify` found out about one tool.
public struct ToolStatus: Sendable, Hashable, Codable {
    /// The tool's name.
    public var name: String
    /// Where it comes from; nil for a lock entry the Toolfile no longer has.
    public var source: ToolSourceKind?
    /// The version the lock pins, when there is an entry.
    public var lockedVersion: String?
    /// The executable's path, when known.
    public var executable: String?
    /// The checks, in the order they ran; later checks are skipped when an earlier one makes
    /// them meaningless (no executable, no checksum).
    public var checks: [ToolCheck]

    /// Creates a status.
    public init(name: String, source: ToolSourceKind?, lockedVersion: String?, executable: String?, checks: [ToolCheck]) {
        self.name = name
        self.source = source
        self.lockedVersion = lockedVersion
        self.executable = executable
        self.checks = checks
    }

    /// True when every check passed.
    public var isOK: Bool { checks.allSatisfy(\.ok) }

    /// The failed checks.
    public var failures: [ToolCheck] { checks.filter { !$0.ok } }

    /// One line per failed check: `'name': check: expected …, found … (file). Advice`.
    public var summary: String {
        failures.map { check in
            "'\(name)': \(check.check.rawValue): expected \(check.expected), found \(check.found) (\(check.file))."
                + (check.advice.map { " \($0)" } ?? "")
        }.joined(separator: "\n")
    }

    enum CodingKeys: String, CodingKey {
        case name, source, lockedVersion, executable, checks, ok
    }

    /// Encodes the status with an `ok` field for scripts.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(lockedVersion, forKey: .lockedVersion)
        try container.encodeIfPresent(executable, forKey: .executable)
        try container.encode(checks, forKey: .checks)
        try container.encode(isOK, forKey: .ok)
    }

    /// Decodes a status (the `ok` field is derived, so it is not read).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        source = try container.decodeIfPresent(ToolSourceKind.self, forKey: .source)
        lockedVersion = try container.decodeIfPresent(String.self, forKey: .lockedVersion)
        executable = try container.decodeIfPresent(String.self, forKey: .executable)
        checks = try container.decode([ToolCheck].self, forKey: .checks)
    }
}

/// The result of `tools verify`: every tool's status, for the platform checked.
public struct ToolVerifyReport: Sendable, Hashable, Codable {
    /// The platform, e.g. `linux-x86_64`.
    public var platform: String
    /// One status per tool (Toolfile order), then stale lock entries.
    public var tools: [ToolStatus]

    /// Creates a report.
    public init(platform: String, tools: [ToolStatus]) {
        self.platform = platform
        self.tools = tools
    }

    /// True when every tool passed every check.
    public var isOK: Bool { tools.allSatisfy(\.isOK) }

    enum CodingKeys: String, CodingKey { case platform, tools, ok }

    /// Encodes the report with an `ok` field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(platform, forKey: .platform)
        try container.encode(tools, forKey: .tools)
        try container.encode(isOK, forKey: .ok)
    }

    /// Decodes a report.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        platform = try container.decode(String.self, forKey: .platform)
        tools = try container.decode([ToolStatus].self, forKey: .tools)
    }
}
