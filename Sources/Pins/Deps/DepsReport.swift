import Basics

/// One check `deps verify` made: what was expected, what was found, in which file.
public struct DepsFinding: Sendable, Hashable, Codable {
    /// What was checked, e.g. `originHash`, `requirement`, `checkout`, `podfile-checksum`,
    /// `dependency`, `manifest-lock`, `cocoapods-version`, `resolved`, `platforms`, `checksums`.
    public var check: String
    /// What it is about (a package, pod, gem or platform); empty for the file as a whole.
    public var subject: String
    /// True when it passed.
    public var ok: Bool
    /// What should be.
    public var expected: String
    /// What is.
    public var found: String
    /// The file the finding is about, relative to the project.
    public var file: String
    /// For a failed check: what to do.
    public var advice: String?

    /// Creates a finding.
    public init(check: String, subject: String, ok: Bool, expected: String, found: String, file: String,
                advice: String? = nil) {
        self.check = check
        self.subject = subject
        self.ok = ok
        self.expected = expected
        self.found = found
        self.file = file
        self.advice = ok ? nil : advice
    }

    /// `file: check 'subject': expected …, found …. Advice`.
    public var summary: String {
        let about = subject.isEmpty ? "" : " '\(subject)'"
        return "\(file): \(check)\(about): expected \(expected), found \(found)." + (advice.map { " \($0)" } ?? "")
    }
}

/// The result of `deps verify`.
public struct DepsReport: Sendable, Hashable, Codable {
    /// The lockfiles that were audited, relative to the project.
    public var files: [String]
    /// Every check made, grouped by file.
    public var findings: [DepsFinding]
    /// What could not be checked and why (no toolchain, Pods not installed).
    public var notes: [String]
    /// Lockfiles that were read but had nothing to be checked against (a Cartfile.resolved
    /// without a Cartfile); a note says why. They neither pass nor fail.
    public var unchecked: [String]

    /// Creates a report.
    public init(files: [String] = [], findings: [DepsFinding] = [], notes: [String] = [], unchecked: [String] = []) {
        self.files = files
        self.findings = findings
        self.notes = notes
        self.unchecked = unchecked
    }

    /// True when every check passed.
    public var isOK: Bool { findings.allSatisfy(\.ok) }

    /// The failed checks.
    public var failures: [DepsFinding] { findings.filter { !$0.ok } }

    enum CodingKeys: String, CodingKey { case files, findings, notes, unchecked, ok }

    /// Encodes the report with an `ok` field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(files, forKey: .files)
        try container.encode(findings, forKey: .findings)
        try container.encode(notes, forKey: .notes)
        try container.encode(unchecked, forKey: .unchecked)
        try container.encode(isOK, forKey: .ok)
    }

    /// Decodes a report.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        files = try container.decode([String].self, forKey: .files)
        findings = try container.decode([DepsFinding].self, forKey: .findings)
        notes = try container.decode([String].self, forKey: .notes)
        unchecked = try container.decodeIfPresent([String].self, forKey: .unchecked) ?? []
    }

    /// Adds another audit's results.
    mutating func merge(_ other: DepsReport) {
        files += other.files
        findings += other.findings
        notes += other.notes
        unchecked += other.unchecked
    }
}

/// Collects findings for one file.
struct FindingList {
    let file: String
    private(set) var findings: [DepsFinding] = []

    init(file: String) { self.file = file }

    mutating func check(_ check: String, _ subject: String = "", ok: Bool, expected: String, found: String,
                        advice: String? = nil, file: String? = nil) {
        findings.append(DepsFinding(check: check, subject: subject, ok: ok, expected: expected, found: found,
                                    file: file ?? self.file, advice: advice))
    }
}
