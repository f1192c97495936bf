import Foundation

/// A version number as Semantic Versioning 2.0.0 defines it: `MAJOR.MINOR.PATCH`, optionally
/// followed by `-PRERELEASE` and `+BUILD` dot-separated identifiers (https://semver.org).
///
/// Equality, hashing and ordering follow SemVer precedence, so build metadata is ignored by
/// all three: `1.0.0+a == 1.0.0+b`. Use `isIdentical(to:)` to compare the full text.
public struct SemanticVersion: Sendable, Hashable, Comparable, Codable, LosslessStringConvertible {
    /// Incremented for incompatible changes.
    public let major: Int
    /// Incremented for compatible additions.
    public let minor: Int
    /// Incremented for compatible fixes.
    public let patch: Int
    /// Pre-release identifiers, e.g. `["rc", "1"]` for `-rc.1`; empty for a release.
    public let prerelease: [String]
    /// Build metadata identifiers, e.g. `["build", "5"]` for `+build.5`; never affect order.
    public let build: [String]

    /// Creates a version from its parts, validating them as `parse(_:)` would.
    /// - Throws: `SemanticVersionError` for a negative number or an invalid identifier.
    public init(major: Int, minor: Int, patch: Int, prerelease: [String] = [], build: [String] = []) throws {
        for (component, value) in [("major", major), ("minor", minor), ("patch", patch)] where value < 0 {
            throw SemanticVersionError.negativeComponent(component: component, value: value)
        }
        let text = Self.render(major, minor, patch, prerelease, build)
        try Self.validate(prerelease, section: .prerelease, in: text)
        try Self.validate(build, section: .build, in: text)
        self.init(unchecked: major, minor, patch, prerelease, build)
    }

    private init(unchecked major: Int, _ minor: Int, _ patch: Int, _ prerelease: [String], _ build: [String]) {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.prerelease = prerelease
        self.build = build
    }

    /// Parses a version written exactly as SemVer 2.0 specifies (no `v`, no spaces).
    /// - Throws: `SemanticVersionError` saying what is wrong and how to write it.
    public static func parse(_ text: String) throws -> SemanticVersion {
        try parse(Substring(text), quoting: text)
    }

    /// Parses a tag name: a version with an optional leading `v` (`v1.2.3` or `1.2.3`).
    /// - Throws: `SemanticVersionError` as `parse(_:)` does, quoting the whole tag.
    public static func parse(tag: String) throws -> SemanticVersion {
        try parse(tag.hasPrefix("v") ? tag.dropFirst() : Substring(tag), quoting: tag)
    }

    /// Parses `version`; errors quote `text`, the input as the user wrote it.
    private static func parse(_ version: Substring, quoting text: String) throws -> SemanticVersion {
        guard !version.isEmpty else {
            if text.isEmpty { throw SemanticVersionError.empty }
            throw SemanticVersionError.invalidCore(text: text)
        }
        var rest = version
        var build: [String] = []
        if let plus = rest.firstIndex(of: "+") {
            build = rest[rest.index(after: plus)...].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            rest = rest[..<plus]
            try validate(build, section: .build, in: text)
        }
        var prerelease: [String] = []
        if let dash = rest.firstIndex(of: "-") {
            prerelease = rest[rest.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false)
                .map(String.init)
            rest = rest[..<dash]
            try validate(prerelease, section: .prerelease, in: text)
        }
        let core = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard core.count == 3 else { throw SemanticVersionError.invalidCore(text: text) }
        let names = ["major", "minor", "patch"]
        var numbers: [Int] = []
        for (name, part) in zip(names, core) {
            guard !part.isEmpty, part.utf8.allSatisfy(isDigit) else {
                throw SemanticVersionError.invalidNumber(text: text, component: name, value: String(part))
            }
            if part.count > 1, part.hasPrefix("0") {
                throw SemanticVersionError.leadingZero(text: text, identifier: String(part))
            }
            guard let value = Int(part) else {
                throw SemanticVersionError.numberTooLarge(text: text, identifier: String(part))
            }
            numbers.append(value)
        }
        return SemanticVersion(unchecked: numbers[0], numbers[1], numbers[2], prerelease, build)
    }

    /// Parses `description`, or returns nil when it is not a version.
    public init?(_ description: String) {
        guard let version = try? Self.parse(description) else { return nil }
        self = version
    }

    /// Parses a tag name with an optional leading `v`, or returns nil when it is not a version.
    public init?(tag: String) {
        guard let version = try? Self.parse(tag: tag) else { return nil }
        self = version
    }

    /// True for a pre-release such as `1.0.0-rc.1`.
    public var isPrerelease: Bool { !prerelease.isEmpty }

    /// The version as text, e.g. `1.2.3-rc.1+build.5`; parsing it gives the same version.
    public var description: String { Self.render(major, minor, patch, prerelease, build) }

    /// True when the versions agree in every part, build metadata included.
    public func isIdentical(to other: SemanticVersion) -> Bool {
        self == other && build == other.build
    }

    // MARK: - Precedence

    /// Equal in SemVer precedence: build metadata is ignored.
    public static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        lhs.major == rhs.major && lhs.minor == rhs.minor && lhs.patch == rhs.patch
            && lhs.prerelease == rhs.prerelease
    }

    /// Hashes the parts that take part in precedence (not build metadata).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(major)
        hasher.combine(minor)
        hasher.combine(patch)
        hasher.combine(prerelease)
    }

    /// SemVer 2.0 precedence (section 11): numbers compare numerically; a pre-release is lower
    /// than the release; pre-release identifiers compare one by one, numeric ones numerically
    /// and below alphanumeric ones, which compare in ASCII order; a longer list wins a tie.
    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if lhs.major != rhs.major { return lhs.major < rhs.major }
        if lhs.minor != rhs.minor { return lhs.minor < rhs.minor }
        if lhs.patch != rhs.patch { return lhs.patch < rhs.patch }
        switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
        case (true, _): return false
        case (false, true): return true
        case (false, false): break
        }
        for (left, right) in zip(lhs.prerelease, rhs.prerelease) where left != right {
            return identifierPrecedes(left, right)
        }
        return lhs.prerelease.count < rhs.prerelease.count
    }

    private static func identifierPrecedes(_ left: String, _ right: String) -> Bool {
        let leftNumeric = left.utf8.allSatisfy(isDigit)
        let rightNumeric = right.utf8.allSatisfy(isDigit)
        switch (leftNumeric, rightNumeric) {
        case (true, true):
            // No leading zeros, so the shorter is smaller; this also works past Int.max.
            return left.utf8.count != right.utf8.count ? left.utf8.count < right.utf8.count
                : left.utf8.lexicographicallyPrecedes(right.utf8)
        case (true, false): return true
        case (false, true): return false
        case (false, false): return left.utf8.lexicographicallyPrecedes(right.utf8)
        }
    }

    // MARK: - Codable

    /// Decodes a version from its text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try Self.parse(text)
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }

    /// Encodes the version as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // MARK: - Validation

    enum Section: String {
        case prerelease = "pre-release"
        case build = "build metadata"
    }

    private static func validate(_ identifiers: [String], section: Section, in text: String) throws {
        for identifier in identifiers {
            guard !identifier.isEmpty else {
                throw SemanticVersionError.emptyIdentifier(text: text, section: section.rawValue)
            }
            if let bad = identifier.unicodeScalars.first(where: { !isIdentifierCharacter($0) }) {
                throw SemanticVersionError.invalidCharacter(text: text, identifier: identifier, character: String(bad))
            }
            let numeric = identifier.utf8.allSatisfy(isDigit)
            if section == .prerelease, numeric, identifier.utf8.count > 1, identifier.hasPrefix("0") {
                throw SemanticVersionError.leadingZero(text: text, identifier: identifier)
            }
        }
    }

    static func render(_ major: Int, _ minor: Int, _ patch: Int, _ prerelease: [String], _ build: [String]) -> String {
        var text = "\(major).\(minor).\(patch)"
        if !prerelease.isEmpty { text += "-" + prerelease.joined(separator: ".") }
        if !build.isEmpty { text += "+" + build.joined(separator: ".") }
        return text
    }
}

private func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }

private func isIdentifierCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "0"..."9", "a"..."z", "A"..."Z", "-": return true
    default: return false
    }
}

// MARK: - Bumping

extension SemanticVersion {
    /// Which part of a version to raise.
    public enum Bump: Sendable, Hashable {
        /// Incompatible change: `1.2.3 → 2.0.0`; a `2.0.0-rc.1` is released as `2.0.0`.
        case major
        /// Compatible addition: `1.2.3 → 1.3.0`; a `1.3.0-rc.1` is released as `1.3.0`.
        case minor
        /// Compatible fix: `1.2.3 → 1.2.4`; a `1.2.4-rc.1` is released as `1.2.4`.
        case patch
        /// The next pre-release named `identifier`: `1.2.3 → 1.2.4-rc.1`,
        /// `1.2.4-rc.1 → 1.2.4-rc.2`, `1.2.4-beta.3 → 1.2.4-rc.1`.
        case prerelease(String)
    }

    /// The next version after this one for `bump`. Build metadata is dropped. The result is
    /// always higher than `self`.
    /// - Throws: `SemanticVersionError.overflow` past `Int.max`, `.invalidCharacter` /
    ///   `.emptyIdentifier` / `.leadingZero` for a bad pre-release identifier, `.notIncreasing`
    ///   when a pre-release identifier sorts below the current one (`rc.1` → `beta`).
    public func bumped(_ bump: Bump) throws -> SemanticVersion {
        switch bump {
        case .major:
            if isPrerelease, minor == 0, patch == 0 { return Self(unchecked: major, 0, 0, [], []) }
            return Self(unchecked: try increment(major, "major"), 0, 0, [], [])
        case .minor:
            if isPrerelease, patch == 0 { return Self(unchecked: major, minor, 0, [], []) }
            return Self(unchecked: major, try increment(minor, "minor"), 0, [], [])
        case .patch:
            if isPrerelease { return Self(unchecked: major, minor, patch, [], []) }
            return Self(unchecked: major, minor, try increment(patch, "patch"), [], [])
        case .prerelease(let identifier):
            return try bumpedPrerelease(identifier)
        }
    }

    private func bumpedPrerelease(_ identifier: String) throws -> SemanticVersion {
        let label = identifier.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try Self.validate(label, section: .prerelease, in: "\(major).\(minor).\(patch)-\(identifier)")
        guard isPrerelease else {
            return Self(unchecked: major, minor, try increment(patch, "patch"), label + ["1"], [])
        }
        var next = label + ["1"]
        if prerelease.starts(with: label) {
            let rest = prerelease.dropFirst(label.count)
            if rest.count == 1, let last = rest.first, last.utf8.allSatisfy(isDigit) {
                guard let number = Int(last), number < Int.max else {
                    throw SemanticVersionError.overflow(version: description, component: "pre-release number")
                }
                next = label + [String(number + 1)]
            }
        }
        let candidate = Self(unchecked: major, minor, patch, next, [])
        guard candidate > self else {
            throw SemanticVersionError.notIncreasing(from: description, to: candidate.description)
        }
        return candidate
    }

    private func increment(_ value: Int, _ component: String) throws -> Int {
        let (result, overflow) = value.addingReportingOverflow(1)
        if overflow { throw SemanticVersionError.overflow(version: description, component: component) }
        return result
    }
}

// MARK: - Errors

/// Why a text is not a semantic version, or a version cannot be bumped.
public enum SemanticVersionError: Error, Equatable, Sendable {
    /// The text is empty.
    case empty
    /// The text does not have exactly three dot-separated numbers before `-`/`+`.
    case invalidCore(text: String)
    /// A core component (`major`, `minor`, `patch`) is not a number.
    case invalidNumber(text: String, component: String, value: String)
    /// A numeric identifier starts with `0`.
    case leadingZero(text: String, identifier: String)
    /// A number does not fit in 64 bits.
    case numberTooLarge(text: String, identifier: String)
    /// A pre-release or build section has an empty identifier (`1.0.0-rc..1`, `1.0.0-`).
    case emptyIdentifier(text: String, section: String)
    /// An identifier contains something other than ASCII letters, digits and `-`.
    case invalidCharacter(text: String, identifier: String, character: String)
    /// A component given to `init(major:minor:patch:)` is negative.
    case negativeComponent(component: String, value: Int)
    /// Bumping would pass `Int.max`.
    case overflow(version: String, component: String)
    /// The pre-release bump would not give a higher version.
    case notIncreasing(from: String, to: String)
}

extension SemanticVersionError: CustomStringConvertible {
    /// The same text as `errorDescription`.
    public var description: String { message }

    var message: String {
        let form = "Write it as MAJOR.MINOR.PATCH with optional -PRERELEASE and +BUILD, e.g. '1.2.3' or '1.2.3-rc.1'."
        switch self {
        case .empty:
            return "An empty text is not a semantic version. \(form)"
        case let .invalidCore(text):
            return "'\(text)' is not a semantic version: it needs exactly three numbers, MAJOR.MINOR.PATCH. \(form)"
        case let .invalidNumber(text, component, value):
            return "'\(text)' is not a semantic version: the \(component) part '\(value)' is not a number. \(form)"
        case let .leadingZero(text, identifier):
            return "'\(text)' is not a semantic version: the number '\(identifier)' has a leading zero. "
                + "Write numbers without leading zeros, e.g. '1.2.3' rather than '01.02.03'."
        case let .numberTooLarge(text, identifier):
            return "'\(text)' is not a usable version: the number '\(identifier)' is too large. Use a number below \(Int.max)."
        case let .emptyIdentifier(text, section):
            return "'\(text)' is not a semantic version: its \(section) has an empty identifier. "
                + "Remove the extra '.', '-' or '+'. \(form)"
        case let .invalidCharacter(text, identifier, character):
            return "'\(text)' is not a semantic version: identifier '\(identifier)' contains '\(character)'. "
                + "Identifiers may only use ASCII letters, digits and '-'."
        case let .negativeComponent(component, value):
            return "The \(component) version \(value) is negative. Version numbers start at 0."
        case let .overflow(version, component):
            return "Cannot bump the \(component) of '\(version)': the number would pass \(Int.max). Choose a version explicitly."
        case let .notIncreasing(from, to):
            return "Bumping '\(from)' to '\(to)' would lower the version, since pre-release labels sort "
                + "alphabetically. Use a label that sorts after the current one, or bump the patch first."
        }
    }
}

extension SemanticVersionError: LocalizedError {
    /// What is wrong with the text and how to write a version.
    public var errorDescription: String? { message }
}
