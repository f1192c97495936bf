/// A release tag's version as app teams write it, not only as Semantic Versioning does:
///
/// | Tag (prefix removed) | Form | Version (for ordering) | Build |
/// | --- | --- | --- | --- |
/// | `1.2.3`, `1.2.3-rc.1` | `semantic` | as written | — |
/// | `20.7` | `twoPart` | `20.7.0` | — |
/// | `20.8.0.0` | `fourPart` | `20.8.0` | `0` |
/// | `7.1.3-7206` | `versionBuild` | `7.1.3` | `7206` |
///
/// An App Store version has one to three parts and a build number beside it; teams tag releases
/// `20.7` and builds `20.8.0.0` or `7.1.3-7206`. A pre-release made only of digits is read as a
/// build number (Semantic Versioning allows `1.2.3-7206` as a pre-release, but no real
/// pre-release is spelled so; `rc.1`, `beta2` stay pre-releases). `ReleaseTagScheme` says how a
/// repository's tags were read.
public struct ReleaseTagVersion: Sendable, Hashable {
    /// How the tag spells its version.
    public enum Form: String, Sendable, Hashable, Codable, CaseIterable {
        /// `1.2.3` or `1.2.3-rc.1`: Semantic Versioning.
        case semantic
        /// `20.7`: major and minor; ordered as `20.7.0`.
        case twoPart
        /// `20.8.0.0`: a version and a build number.
        case fourPart
        /// `7.1.3-7206`: a version and, after the dash, a build number.
        case versionBuild

        /// True for the forms that carry a build number.
        public var hasBuild: Bool { self == .fourPart || self == .versionBuild }
    }

    /// The version, for ordering (`20.7` is `20.7.0`).
    public let version: SemanticVersion
    /// The build number, for the forms that carry one.
    public let build: String?
    /// The form.
    public let form: Form
    /// The version as the tag writes it, without prefix and build: `20.7`, `1.2.3-rc.1`, `20.8.0`.
    public let written: String

    /// Reads `text` (a tag name without its prefix; a leading `v` is allowed when `allowingV`),
    /// or nil when it is not a version in one of the forms.
    public init?(_ text: String, allowingV: Bool = false) {
        let body = allowingV && text.hasPrefix("v") ? String(text.dropFirst()) : text
        if let semantic = SemanticVersion(body) {
            if semantic.prerelease.count == 1, let only = semantic.prerelease.first, semantic.build.isEmpty,
               only.utf8.allSatisfy({ (48...57).contains($0) }) {
                guard let core = try? SemanticVersion(major: semantic.major, minor: semantic.minor, patch: semantic.patch) else { return nil }
                self.init(version: core, build: only, form: .versionBuild, written: core.description)
                return
            }
            self.init(version: semantic, build: nil, form: .semantic, written: body)
            return
        }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 4,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.utf8.allSatisfy { (48...57).contains($0) } }),
              let numbers = Optional(parts.compactMap { Int($0) }), numbers.count == parts.count,
              let version = try? SemanticVersion(major: numbers[0], minor: numbers[1], patch: parts.count == 4 ? numbers[2] : 0)
        else { return nil }
        if parts.count == 2 {
            self.init(version: version, build: nil, form: .twoPart, written: "\(numbers[0]).\(numbers[1])")
        } else {
            self.init(version: version, build: String(parts[3]), form: .fourPart, written: parts[0..<3].joined(separator: "."))
        }
    }

    /// A record of parts already read (e.g. kept by a tag record).
    public init(ordering version: SemanticVersion, build: String?, form: Form, written: String) {
        self.init(version: version, build: build, form: form, written: written)
    }

    private init(version: SemanticVersion, build: String?, form: Form, written: String) {
        self.version = version
        self.build = build
        self.form = form
        self.written = written
    }

    /// The build number as a number, when it is one.
    public var buildNumber: Int? { build.flatMap { Int($0) } }

    /// Orders two tags' versions: the version first, then the build number (a tag without a
    /// build, the release, comes after its builds).
    public static func precedes(_ lhs: ReleaseTagVersion, _ rhs: ReleaseTagVersion) -> Bool {
        if lhs.version != rhs.version { return lhs.version < rhs.version }
        switch (lhs.buildNumber, rhs.buildNumber) {
        case let (left?, right?): return left < right
        case (.some, nil): return true
        default: return false
        }
    }
}
