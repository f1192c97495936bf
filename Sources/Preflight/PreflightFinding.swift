import Basics

/// How much a finding matters: an `error` is what App Store Connect (or TestFlight) would refuse,
/// and makes `slipway preflight` exit 2; a `warning` is what Apple accepts with a complaint or a
/// question; a `note` is what Slipway could not decide.
public enum PreflightSeverity: String, Codable, Sendable, Hashable, CaseIterable {
    case error, warning, note
}

/// Where a finding is: a file (and line) of the checkout, or an App Store Connect resource.
public struct PreflightLocation: Codable, Sendable, Hashable, CustomStringConvertible {
    /// A path relative to the project folder.
    public var file: String?
    /// The 1-based line in `file`, when known.
    public var line: Int?
    /// An App Store Connect resource (`apps/123 appStoreVersions`), for the remote rules.
    public var resource: String?

    /// A file location.
    public static func file(_ path: String, line: Int? = nil) -> PreflightLocation {
        PreflightLocation(file: path, line: line, resource: nil)
    }

    /// An App Store Connect resource.
    public static func appStoreConnect(_ resource: String) -> PreflightLocation {
        PreflightLocation(file: nil, line: nil, resource: resource)
    }

    /// A `file:line` place as `BuildSettingLookup` writes it (`Config/Base.xcconfig:3`).
    public static func place(_ place: String) -> PreflightLocation {
        if let colon = place.lastIndex(of: ":"), let line = Int(place[place.index(after: colon)...]) {
            return .file(String(place[..<colon]), line: line)
        }
        return .file(place)
    }

    /// `file:line`, `file`, or `App Store Connect <resource>`.
    public var description: String {
        if let file { return line.map { "\(file):\($0)" } ?? file }
        return "App Store Connect " + (resource ?? "")
    }
}

/// One problem found before the archive: which rule, how bad, where, what and what to do, and
/// the Apple document (or ITMS error) it comes from.
public struct PreflightFinding: Codable, Sendable, Hashable {
    /// The rule's id (`version-format`).
    public var rule: String
    /// How much it matters.
    public var severity: PreflightSeverity
    /// Where it is.
    public var location: PreflightLocation
    /// What is wrong, quoting the values read.
    public var message: String
    /// What to do about it.
    public var advice: String
    /// Apple's document (a URL) or the ITMS error it prevents.
    public var citation: String

    /// A finding.
    public init(rule: String, severity: PreflightSeverity, location: PreflightLocation, message: String, advice: String, citation: String) {
        self.rule = rule
        self.severity = severity
        self.location = location
        self.message = message
        self.advice = advice
        self.citation = citation
    }
}
